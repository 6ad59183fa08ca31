// The sha-256 of a value's canonical JSON: what a tool authorization compares bindings and upstream definitions
// by (model.ts), so equal values however written have one digest. Apart from the model because it hashes with
// Node's crypto.
import { createHash } from 'node:crypto';
import { canonicalJson } from '@tollgate/engine';

/** The sha-256 (hex) of `value`'s canonical JSON (sorted keys, no spaces). */
export function canonicalDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
