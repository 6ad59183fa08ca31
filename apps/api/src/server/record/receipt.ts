// A decision's receipt (docs/audit.md, "Receipts"): the decision's entry, its approval's entries and the chained
// changes of the document versions that decided, each writer's entries from them up to the checkpoint that covers
// them, those checkpoints, the writers' and signing members' public keys, and the digests of the versions' texts. Enough to check offline, with nothing else,
// that the decision was chained at its place and covered by a checkpoint its writer signed
// (`tollgate audit verify-receipt`, receipt-verify.ts). Entries are restated from their rows as they stand, as an
// export does (export.ts), so a row edited since no longer hashes to its entry.

import { createHash } from 'node:crypto';
import type { DocumentStore } from '@tollgate/store';
import type { DecisionRow } from '../state/decisions/model.ts';
import { readStoredJson } from '../state/stored-json.ts';
import { type SignerLine, signerLinesOf } from './approval-signatures.ts';
import type { ChainEntry, Checkpoint } from './chain.ts';
import { DOCUMENT_CHANGED, documentRef } from './documents.ts';
import { restated } from './export.ts';
import type { RecordReader } from './reader.ts';
import type { EntryRow } from './writer.ts';

/** The version of a receipt's form. */
export const RECEIPT_FORM = 1;

/**
 * The most entries a receipt's path holds. A writer signs a checkpoint every 5,000 entries (writer.ts), so a path is
 * far shorter unless a writer stopped signing; over this, the receipt says `covered: false` rather than grow.
 */
export const MAX_RECEIPT_PATH = 10_000;

export interface Receipt {
  receipt: typeof RECEIPT_FORM;
  call_id: string;
  /** The call's `decision` entry, its body restated from the row as it stands. */
  decision: ChainEntry;
  /** The entries of the call's approval request (requested, decided, claimed), if it was held. */
  approvals: ChainEntry[];
  /**
   * The `document.changed` entry of each version that decided, where the record holds one that a checkpoint covers
   * (a version stored before the record, or whose writer never signed over it, has none here): it chains the
   * version's text digest, which `policy` must then state.
   */
  documents: ChainEntry[];
  /** Whether every entry above is covered by a checkpoint, and so `path` and `checkpoints` are given. */
  covered: boolean;
  /** Each writer's entries from the first stated one to the checkpoint covering the last, by writer, in order. */
  path: ChainEntry[];
  /** The checkpoints that cover the entries, each signed by its writer. */
  checkpoints: Checkpoint[];
  /** The public keys (SPKI PEM) of the writers whose chains hold the entries. */
  writers: { writer: string; public_key: string }[];
  /** The public keys that signed the approval: the member's custodial key, or the credential of theirs that did. */
  members: SignerLine[];
  /** Each document version that decided (the decision's `versions`), with the SHA-256 of its text as stored now. */
  policy: { document: string; version: number; sha256: string | null }[];
}

/** What of the state a receipt reads (a StateStore has it all). */
export interface ReceiptSource {
  readonly recordReader: RecordReader;
  readonly recordWriter: { readonly id: string };
  findDecision(callId: string): Promise<DecisionRow | undefined>;
  checkpointRecord(now?: Date): Promise<Checkpoint | undefined>;
}

export type ReceiptAnswer = { ok: true; receipt: Receipt } | { ok: false; why: 'not_found' | 'not_recorded' };

/**
 * The receipt of a call. An entry of this process's writer that no checkpoint covers yet gets one signed first, so
 * a receipt always has one unless signing failed; an entry of another writer (a node) waits for that writer's.
 */
export async function buildReceipt(source: ReceiptSource, store: DocumentStore, callId: string): Promise<ReceiptAnswer> {
  const row = await source.findDecision(callId);
  if (!row) return { ok: false, why: 'not_found' };
  const reader = source.recordReader;
  const [decisionRow] = (await reader.entriesOf(callId)).filter((e) => e.kind === 'decision');
  if (!decisionRow) return { ok: false, why: 'not_recorded' };
  const approvalRows: EntryRow[] = [];
  for (const approval of await reader.approvalsOfCall(callId))
    approvalRows.push(...(await reader.entriesOf(approval.id)).filter((e) => e.kind.startsWith('approval.')));
  const versions = versionsOf(row);
  const documentRows: EntryRow[] = [];
  for (const { document, version } of versions) {
    const [entry] = (await reader.entriesOf(documentRef(document, version))).filter((e) => e.kind === DOCUMENT_CHANGED);
    if (entry) documentRows.push(entry);
  }
  const seqd = (e: EntryRow) => ({ ...e, seq: Number(e.seq) });
  const call = [decisionRow, ...approvalRows].map(seqd);

  let covering = await coveringOf(reader, [...call, ...documentRows.map(seqd)]);
  if (covering.some((c, i) => c === undefined && [...call, ...documentRows][i]?.writer === source.recordWriter.id)) {
    await source.checkpointRecord();
    covering = await coveringOf(reader, [...call, ...documentRows.map(seqd)]);
  }
  // A document's entry no checkpoint covers is left out (its digest is then unproven); the call's must be covered.
  const documentsCovered = documentRows.map(seqd).filter((_, i) => covering[call.length + i] !== undefined);
  const stated = [...call, ...documentsCovered];
  covering = covering.filter((c, i) => i < call.length || c !== undefined);
  const ranges = covering.every((c) => c !== undefined) ? rangesOf(stated, covering as Checkpoint[]) : undefined;
  const length = (ranges ?? []).reduce((n, r) => n + r.to - r.from + 1, 0);
  const covered = ranges !== undefined && length <= MAX_RECEIPT_PATH;

  const path: ChainEntry[] = [];
  if (covered)
    for (const { writer, from, to } of ranges)
      path.push(...(await restated(reader, await reader.entries(writer, from - 1, to - from + 1), store)));
  const restatedAll = await restated(reader, stated, store);
  const [decision, ...approvals] = restatedAll.slice(0, call.length);
  const documents = restatedAll.slice(call.length);
  const checkpoints = covered ? uniqueCheckpoints(covering as Checkpoint[]) : [];
  const involved = new Set(stated.map((e) => e.writer));
  const writers = (await reader.writers()).filter((w) => involved.has(w.writer)).map(({ writer, public_key }) => ({ writer, public_key }));
  const members = await signerLinesOf(reader, approvals);
  return {
    ok: true,
    receipt: {
      receipt: RECEIPT_FORM,
      call_id: callId,
      decision: decision as ChainEntry,
      approvals,
      documents,
      covered,
      path,
      checkpoints,
      writers,
      members,
      policy: await policyOf(store, versions),
    },
  };
}

function coveringOf(reader: RecordReader, stated: readonly EntryRow[]): Promise<(Checkpoint | undefined)[]> {
  return Promise.all(
    stated.map(async (e) => {
      const c = await reader.checkpointCovering(e.writer, e.seq);
      return c ? { ...c, seq: Number(c.seq) } : undefined;
    }),
  );
}

/** Each writer's ranges of entries from a stated entry to its covering checkpoint, overlapping ones merged. */
function rangesOf(stated: readonly EntryRow[], covering: readonly Checkpoint[]): { writer: string; from: number; to: number }[] {
  const spans = stated
    .map((e, i) => ({ writer: e.writer, from: e.seq, to: (covering[i] as Checkpoint).seq }))
    .sort((a, b) => (a.writer < b.writer ? -1 : a.writer > b.writer ? 1 : a.from - b.from));
  const merged: { writer: string; from: number; to: number }[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && last.writer === span.writer && span.from <= last.to + 1) last.to = Math.max(last.to, span.to);
    else merged.push({ ...span });
  }
  return merged;
}

function uniqueCheckpoints(checkpoints: readonly Checkpoint[]): Checkpoint[] {
  const byPlace = new Map(checkpoints.map((c) => [`${c.writer}\u0000${c.seq}`, c]));
  return [...byPlace.values()].sort((a, b) => (a.writer < b.writer ? -1 : a.writer > b.writer ? 1 : a.seq - b.seq));
}

/** The versions that decided, as the decision's row states them. */
function versionsOf(row: DecisionRow): { document: string; version: number }[] {
  const versions = readStoredJson(row.versions);
  if (versions === null || typeof versions !== 'object' || Array.isArray(versions)) return [];
  return Object.entries(versions).flatMap(([document, version]) => (typeof version === 'number' ? [{ document, version }] : []));
}

/** The versions that decided, each with the SHA-256 of the store's text of it now (null when the store has none). */
async function policyOf(store: DocumentStore, versions: readonly { document: string; version: number }[]): Promise<Receipt['policy']> {
  const out: Receipt['policy'] = [];
  for (const { document, version } of versions) {
    const stored = await store.getVersion(document, version).catch(() => undefined);
    const sha256 = stored ? createHash('sha256').update(stored.text, 'utf8').digest('hex') : null;
    out.push({ document, version, sha256 });
  }
  return out;
}
