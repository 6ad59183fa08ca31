// A decision's receipt checked offline, with only what it holds (docs/audit.md, "Receipts"): the approval's member
// signature (approval-signatures.ts), each entry's hash and the links from each stated entry to the checkpoint that
// covers it (chain.ts's hashOf), that checkpoint's signature by its writer's key and its head (chain.ts's
// checkpointSigned), and that the versions named are the ones the chained decision states. Pure.
import type { KeyObject } from 'node:crypto';
import { readJsonText } from '@tollgate/engine/source';
import { firstBadApproval, memberKeysOf } from './approval-signatures.ts';
import { type ChainEntry, type Checkpoint, checkpointSigned, hashOf } from './chain.ts';
import type { Receipt } from './receipt.ts';

/** What failed first, in the order they are checked. */
export type ReceiptReason =
  | 'approval_signature'
  | 'decision'
  | 'approval'
  | 'hash'
  | 'unknown_writer'
  | 'uncovered'
  | 'order'
  | 'link'
  | 'path'
  | 'signature'
  | 'checkpoint'
  | 'policy'
  | 'document';

export type ReceiptVerdict =
  | {
      ok: true;
      decision: { writer: string; seq: number };
      checkpoints: number;
      path: number;
      approvals: number;
      /** How many of the versions that decided have their text digest proven by a chained entry. */
      documents: number;
      members: number;
    }
  | { ok: false; reason: ReceiptReason; message: string };

/** A receipt as read: its public keys already read as keys (a key that does not read is left out, and so fails). */
export type ReadReceipt = Omit<Receipt, 'receipt'>;

const broken = (reason: ReceiptReason, message: string): ReceiptVerdict => ({ ok: false, reason, message });

function nameOf(entry: ChainEntry): string {
  return `${entry.kind} entry ${entry.seq} of ${entry.writer}`;
}

/**
 * Verifies a receipt against the writers' keys it holds (`keys`, by writer id). Names the first thing that fails.
 *
 * @example
 * verifyReceipt(receipt, new Map([['n1', publicKey]])) // { ok: true, decision: { writer: 'n1', seq: 7 }, ... }
 */
export function verifyReceipt(receipt: ReadReceipt, keys: ReadonlyMap<string, KeyObject>): ReceiptVerdict {
  const stated = [receipt.decision, ...receipt.approvals, ...receipt.documents];
  const bad = firstBadApproval(receipt.approvals, memberKeysOf(receipt.members));
  if (bad) return broken('approval_signature', bad.message);
  const statedWrong = statedProblem(receipt);
  if (statedWrong) return statedWrong;
  for (const entry of [...stated, ...receipt.path])
    if (hashOf(entry) !== entry.hash) return broken('hash', `the ${nameOf(entry)} was changed: its hash does not match it`);
  if (!receipt.covered) return broken('uncovered', 'the receipt says no checkpoint covers its entries, so it proves no place in a chain');

  const byPlace = new Map<string, ChainEntry>();
  for (const entry of receipt.path) {
    const place = `${entry.writer}\u0000${entry.seq}`;
    if (byPlace.has(place)) return broken('order', `the path holds entry ${entry.seq} of ${entry.writer} twice`);
    byPlace.set(place, entry);
  }
  const at = (writer: string, seq: number) => byPlace.get(`${writer}\u0000${seq}`);
  for (const entry of stated) {
    const problem = pathProblem(entry, receipt.checkpoints, at, keys);
    if (problem) return problem;
  }
  const policy = policyProblem(receipt) ?? documentProblem(receipt);
  if (policy) return policy;
  return {
    ok: true,
    decision: { writer: receipt.decision.writer, seq: receipt.decision.seq },
    checkpoints: receipt.checkpoints.length,
    path: receipt.path.length,
    approvals: receipt.approvals.length,
    documents: receipt.documents.length,
    members: receipt.members.length,
  };
}

/** The decision must be this call's `decision` entry, and the approvals entries of one request of this call. */
function statedProblem(receipt: ReadReceipt): ReceiptVerdict | undefined {
  const { decision, approvals, call_id } = receipt;
  if (decision.kind !== 'decision' || decision.body.call_id !== call_id)
    return broken('decision', `the ${nameOf(decision)} is not the decision of call ${call_id}`);
  const request = approvals[0]?.body.id;
  for (const entry of approvals)
    if (!entry.kind.startsWith('approval.') || entry.body.call_id !== call_id || entry.body.id !== request)
      return broken('approval', `the ${nameOf(entry)} is not of the approval request of call ${call_id}`);
  for (const entry of receipt.documents)
    if (entry.kind !== 'document.changed') return broken('document', `the ${nameOf(entry)} is not a document's change`);
  return undefined;
}

/** From a stated entry, every entry of its writer up to the first checkpoint at or after it, each linked, and that checkpoint signed. */
function pathProblem(
  entry: ChainEntry,
  checkpoints: readonly Checkpoint[],
  at: (writer: string, seq: number) => ChainEntry | undefined,
  keys: ReadonlyMap<string, KeyObject>,
): ReceiptVerdict | undefined {
  const key = keys.get(entry.writer);
  if (!key) return broken('unknown_writer', `no public key for writer ${entry.writer}, whose chain holds the ${nameOf(entry)}`);
  const covering = checkpoints
    .filter((c) => c.writer === entry.writer && c.seq >= entry.seq)
    .reduce<Checkpoint | undefined>((best, c) => (best === undefined || c.seq < best.seq ? c : best), undefined);
  if (!covering) return broken('uncovered', `no checkpoint of ${entry.writer} covers the ${nameOf(entry)}`);
  const first = at(entry.writer, entry.seq);
  if (first?.hash !== entry.hash) return broken('path', `the path does not hold the ${nameOf(entry)} as stated`);
  for (let seq = entry.seq + 1; seq <= covering.seq; seq++) {
    const next = at(entry.writer, seq);
    const before = at(entry.writer, seq - 1) as ChainEntry;
    if (!next)
      return broken(
        'order',
        `entry ${seq} of ${entry.writer} is missing from the path from the ${nameOf(entry)} to the checkpoint at ${covering.seq}`,
      );
    if (next.prev !== before.hash) return broken('link', `entry ${seq} of ${entry.writer} does not name the hash of the entry before it`);
  }
  if (!checkpointSigned(covering, key))
    return broken('signature', `the checkpoint of ${covering.writer} at ${covering.seq} is not signed by its key`);
  if ((at(entry.writer, covering.seq) as ChainEntry).hash !== covering.head)
    return broken('checkpoint', `entry ${covering.seq} of ${covering.writer} is not the one its checkpoint signed`);
  return undefined;
}

/** The versions the receipt names must be the ones the chained decision states. */
function policyProblem(receipt: ReadReceipt): ReceiptVerdict | undefined {
  const text = receipt.decision.body.versions;
  const read = typeof text === 'string' ? readJsonText(text, { maxLength: 64 * 1024, maxDepth: 4 }) : undefined;
  const chained = read?.ok && read.diagnostics.length === 0 ? (read.value as Record<string, unknown>) : {};
  const named = receipt.policy.map((p) => `${p.document}@${p.version}`).sort();
  const stated = Object.entries(chained ?? {})
    .map(([document, version]) => `${document}@${String(version)}`)
    .sort();
  if (named.join('\n') !== stated.join('\n'))
    return broken('policy', `the versions named (${named.join(', ')}) are not the ones the decision states (${stated.join(', ')})`);
  return undefined;
}

/** Each chained document change must be of a version named, with the digest the receipt states for it. */
function documentProblem(receipt: ReadReceipt): ReceiptVerdict | undefined {
  for (const entry of receipt.documents) {
    const { id, sequence, text_sha256 } = entry.body;
    const named = receipt.policy.find((p) => p.document === id && p.version === sequence);
    if (!named) return broken('document', `the ${nameOf(entry)} is of ${String(id)}@${String(sequence)}, not a version that decided`);
    if (named.sha256 !== text_sha256)
      return broken('document', `the digest stated for ${named.document}@${named.version} is not the one the record chained`);
  }
  return undefined;
}
