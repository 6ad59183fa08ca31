// The record's chain (docs/audit.md): each entry's canonical form (RFC 8785, JSON Canonicalization Scheme, by the
// `canonicalize` package) names the hash of the entry before it in its writer's chain, and its own SHA-256 is kept
// with it; each writer signs checkpoints of its chain's position and head with an Ed25519 key of its own. Anyone
// holding the entries, the checkpoints and the writers' public keys verifies the record offline with
// verifyRecord, which names the first entry where anything was changed, removed, inserted or reordered.
import { type KeyObject, sign, verify } from 'node:crypto';
import canonicalize from 'canonicalize';
import { canonicalText } from './canonical-json.ts';
import { CHAIN_FORM, formWithBody, GENESIS, sha256 } from './chain-form.ts';

export { CHAIN_FORM, formAroundPlace, formWithBody, GENESIS, sha256 } from './chain-form.ts';

/** A JSON value as an entry's body holds it: no undefined, no functions, numbers only where they are whole. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One entry of a writer's chain. */
export interface ChainEntry {
  /** The writer whose chain holds it (a node's id, or the embedded server's). */
  writer: string;
  /** Its place in the writer's chain, from 1, with no gaps. */
  seq: number;
  /** What happened: `decision`, `approval.decided`, `member.removed`, ... */
  kind: string;
  /** When, as an ISO time. */
  at: string;
  /** What the record keeps of it: ids, digests, codes; never an argument value or a secret. */
  body: { [key: string]: JsonValue };
  /** The hash of the writer's entry before it (GENESIS for the first). */
  prev: string;
  /** The SHA-256, as lowercase hex, of the entry's canonical form. */
  hash: string;
}

/** Where a writer's chain stands: its last entry's place and hash (0 and GENESIS before the first). */
export interface ChainHead {
  writer: string;
  seq: number;
  hash: string;
}

/**
 * The canonical form of an entry, which its hash is of: its fields but the hash, with the form's version, as RFC
 * 8785 writes them (members sorted by code point, numbers in their shortest form, strings escaped one way).
 *
 * @example
 * canonicalForm({ writer: 'n1', seq: 1, kind: 'k', at: 't', body: {}, prev: GENESIS })
 * // '{"at":"t","body":{},"form":1,"kind":"k","prev":"000…","seq":1,"writer":"n1"}'
 */
export function canonicalForm(entry: Omit<ChainEntry, 'hash'>): string {
  return formWithBody(entry, canonicalText(entry.body));
}

/** The SHA-256 of an entry's canonical form, as lowercase hex. */
export function hashOf(entry: Omit<ChainEntry, 'hash'>): string {
  return sha256(canonicalForm(entry));
}

/** The entry that follows `head` in its writer's chain. */
export function nextEntry(head: ChainHead, kind: string, at: string, body: ChainEntry['body']): ChainEntry {
  const entry = { writer: head.writer, seq: head.seq + 1, kind, at, body, prev: head.hash };
  return { ...entry, hash: hashOf(entry) };
}

/** The head a chain stands at after `entry`. */
export function headAfter(entry: ChainEntry): ChainHead {
  return { writer: entry.writer, seq: entry.seq, hash: entry.hash };
}

/**
 * A writer's signed statement of where its chain stood at a time, and the heads of the other writers' chains it had
 * seen: a truncation of the chain up to it, or an entry changed before it, no longer matches it.
 */
export interface Checkpoint {
  writer: string;
  seq: number;
  head: string;
  at: string;
  seen: { [writer: string]: { seq: number; head: string } };
  /** Ed25519 over the canonical form of the fields above, base64. */
  signature: string;
}

/** The bytes a checkpoint's signature is over. */
function checkpointForm(checkpoint: Omit<Checkpoint, 'signature'>): Buffer {
  const { writer, seq, head, at, seen } = checkpoint;
  return Buffer.from(canonicalize({ form: CHAIN_FORM, checkpoint: { writer, seq, head, at, seen } }) as string, 'utf8');
}

/** Signs where `head` stands, with the writer's private key. */
export function signCheckpoint(head: ChainHead, at: string, seen: Checkpoint['seen'], privateKey: KeyObject): Checkpoint {
  const unsigned = { writer: head.writer, seq: head.seq, head: head.hash, at, seen };
  return { ...unsigned, signature: sign(null, checkpointForm(unsigned), privateKey).toString('base64') };
}

/** Whether the checkpoint was signed by the holder of `publicKey`, as it reads. */
export function checkpointSigned(checkpoint: Checkpoint, publicKey: KeyObject): boolean {
  try {
    return verify(null, checkpointForm(checkpoint), publicKey, Buffer.from(checkpoint.signature, 'base64'));
  } catch {
    return false;
  }
}

/** Why a record does not verify, at the first place it fails. */
export interface RecordBreak {
  writer: string;
  /** The entry where the record first fails: for a checkpoint, the position it names (or, for a head it saw, that writer's). */
  seq: number;
  /** Its place in the record as given (entries in their order, from 0); null for a checkpoint. */
  index: number | null;
  /** For a checkpoint's failure, the checkpoint's place among the checkpoints given (from 0). */
  checkpoint?: number;
  reason: 'hash' | 'link' | 'order' | 'checkpoint' | 'signature' | 'truncated' | 'unknown_writer' | 'approval_signature';
  message: string;
}

export type RecordVerdict = { ok: true; entries: number; checkpoints: number } | { ok: false; first: RecordBreak };

/**
 * Verifies a record: each entry's writer has a key; each writer's entries in order from 1 with no gap, each linked to
 * the one before and hashed as its canonical form says; each checkpoint signed by its writer's key and matching the
 * entry at its position, which must be there, and each head it saw of another writer there as it was. The first
 * failure in the record's own order is named (a checkpoint's after every entry's).
 *
 * @example
 * verifyRecord(entries, checkpoints, new Map([['n1', publicKey]])) // { ok: true, entries: 40, checkpoints: 2 }
 */
export function verifyRecord(
  entries: readonly ChainEntry[],
  checkpoints: readonly Checkpoint[],
  keys: ReadonlyMap<string, KeyObject>,
  options: { starts?: ReadonlyMap<string, ChainHead> } = {},
): RecordVerdict {
  // A part of a record (a time range) starts each writer's chain where it says: the head before its first entry.
  const starts = options.starts;
  const heads = new Map<string, ChainHead>(starts ?? []);
  const byPlace = new Map<string, string>();
  for (const [index, entry] of entries.entries()) {
    const head = heads.get(entry.writer) ?? { writer: entry.writer, seq: 0, hash: GENESIS };
    const at = { writer: entry.writer, seq: entry.seq, index };
    // A chain no key stands behind could be anyone's: every writer's public key comes with its entries.
    if (!keys.has(entry.writer))
      return { ok: false, first: { ...at, reason: 'unknown_writer', message: `no public key for writer ${entry.writer}` } };
    if (entry.seq !== head.seq + 1) {
      const message =
        entry.seq <= head.seq
          ? `entry ${entry.seq} of ${entry.writer} comes after entry ${head.seq}: reordered or repeated`
          : `entry ${entry.seq} of ${entry.writer} follows entry ${head.seq}: ${entry.seq - head.seq - 1} missing`;
      return { ok: false, first: { ...at, reason: 'order', message } };
    }
    if (entry.prev !== head.hash) {
      return {
        ok: false,
        first: { ...at, reason: 'link', message: `entry ${entry.seq} of ${entry.writer} does not name the hash of the entry before it` },
      };
    }
    if (hashOf(entry) !== entry.hash) {
      return {
        ok: false,
        first: { ...at, reason: 'hash', message: `entry ${entry.seq} of ${entry.writer} was changed: its hash does not match it` },
      };
    }
    heads.set(entry.writer, headAfter(entry));
    byPlace.set(`${entry.writer}\u0000${entry.seq}`, entry.hash);
  }
  for (const [place, checkpoint] of checkpoints.entries()) {
    const at = { writer: checkpoint.writer, seq: checkpoint.seq, index: null, checkpoint: place };
    const key = keys.get(checkpoint.writer);
    if (!key) return { ok: false, first: { ...at, reason: 'unknown_writer', message: `no public key for writer ${checkpoint.writer}` } };
    if (!checkpointSigned(checkpoint, key)) {
      return {
        ok: false,
        first: {
          ...at,
          reason: 'signature',
          message: `the checkpoint of ${checkpoint.writer} at ${checkpoint.seq} is not signed by its key`,
        },
      };
    }
    const hash = byPlace.get(`${checkpoint.writer}\u0000${checkpoint.seq}`);
    if (hash === undefined) {
      const last = heads.get(checkpoint.writer)?.seq ?? 0;
      return {
        ok: false,
        first: {
          ...at,
          reason: 'truncated',
          message: `the checkpoint of ${checkpoint.writer} names entry ${checkpoint.seq}; the record ends at ${last}`,
        },
      };
    }
    if (hash !== checkpoint.head) {
      return {
        ok: false,
        first: {
          ...at,
          reason: 'checkpoint',
          message: `entry ${checkpoint.seq} of ${checkpoint.writer} is not the one its checkpoint signed`,
        },
      };
    }
    // The heads it saw of the other writers bind their chains too: each must still be there, as it was.
    for (const [writer, seen] of Object.entries(checkpoint.seen)) {
      const last = heads.get(writer)?.seq ?? 0;
      // A part of a record holds each writer's range only: a head seen outside it is not there to check.
      if (starts && (seen.seq <= (starts.get(writer)?.seq ?? 0) || seen.seq > last)) continue;
      const there = seen.seq === 0 ? GENESIS : byPlace.get(`${writer}\u0000${seen.seq}`);
      if (there === seen.head) continue;
      return {
        ok: false,
        first: {
          writer,
          seq: seen.seq,
          index: null,
          checkpoint: place,
          reason: there === undefined ? 'truncated' : 'checkpoint',
          message:
            there === undefined
              ? `the checkpoint of ${checkpoint.writer} at ${checkpoint.seq} saw entry ${seen.seq} of ${writer}; the record of ${writer} ends at ${last}`
              : `entry ${seen.seq} of ${writer} is not the one the checkpoint of ${checkpoint.writer} at ${checkpoint.seq} saw`,
        },
      };
    }
  }
  return { ok: true, entries: entries.length, checkpoints: checkpoints.length };
}
