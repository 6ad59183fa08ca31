// Content digests: sha-256 of the UTF-8 text, hex.
import { createHash } from 'node:crypto';

export function digestOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
