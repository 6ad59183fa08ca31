// The shapes of the record's parts as the offline checkers read them (audit-verify.ts, a record's JSON lines;
// audit-verify-receipt.ts, a receipt): an entry, a checkpoint and their fields, one definition for both, so an export
// and a receipt can never be read by two rules; the one refusal of a number the record never writes; and how they count.
import { isJsonNumber } from '@tollgate/engine/source';
import { z } from 'zod';

export const Hex64 = z.string().regex(/^[0-9a-f]{64}$/);
export const Name = z.string().min(1).max(256);
export const Seq = z.number().int().min(1);
/** A public key, SPKI PEM. */
export const Key = z.string().min(1).max(4096);

/** A signer's key as an export's member line and a receipt name it (record/approval-signatures.ts, SignerLine). */
export const signerFields = {
  member: Name,
  public_key: Key,
  credential: z.string().min(1).max(512).optional(),
  kind: z.enum(['passkey', 'device']).optional(),
  rp_id: z.string().max(253).nullable().optional(),
};

export const entryFields = {
  writer: Name,
  seq: Seq,
  kind: Name,
  at: z.string().min(1).max(64),
  body: z.record(z.string(), z.unknown()),
  prev: Hex64,
  hash: Hex64,
};

export const checkpointFields = {
  writer: Name,
  seq: Seq,
  head: Hex64,
  at: z.string().min(1).max(64),
  seen: z.record(z.string(), z.object({ seq: z.number().int().min(0), head: Hex64 }).strict()),
  signature: z.string().min(1).max(256),
};

/** Whether a value read holds a number the record never holds (not a whole number JSON states exactly). */
export function holdsKeptNumber(value: unknown): boolean {
  if (isJsonNumber(value)) return true;
  if (Array.isArray(value)) return value.some(holdsKeptNumber);
  if (value !== null && typeof value === 'object') return Object.values(value).some(holdsKeptNumber);
  return false;
}

/** `n` of a thing, in words a person reads: 1 entry, 2 entries. */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
