// The record as JSON lines (docs/audit.md, "Exporting"): each writer with its public key, its entries in order with
// each body restated from the row it states as that row stands now (entries.ts), the keys of the members who signed
// approvals, and every checkpoint. A row changed or deleted since it was chained is an entry that no longer hashes,
// which `tollgate audit verify` names.
import type { DocumentStore } from '@tollgate/store';
import type { ApprovalRow } from '../state/approvals/model.ts';
import type { DecisionRow } from '../state/decisions/model.ts';
import { readStoredJson } from '../state/stored-json.ts';
import { type SignerLine, signerLinesOf } from './approval-signatures.ts';
import { type ChainEntry, GENESIS, type JsonValue } from './chain.ts';
import { DOCUMENT_CHANGED, textDigest, versionOfRef } from './documents.ts';
import { bodyFromSource, ENTRY_SOURCES, type EntryKind, type IdentityChangeRow } from './entries.ts';
import type { RecordReader } from './reader.ts';
import type { EntryRow } from './writer.ts';

/** Entries read at once. */
const PAGE = 500;

/** One line of an exported record. */
export type RecordLine =
  | { type: 'range'; since: string; until: string }
  | { type: 'start'; writer: string; seq: number; head: string }
  | { type: 'writer'; writer: string; public_key: string }
  | ({ type: 'entry' } & ChainEntry)
  | ({ type: 'member' } & SignerLine)
  | ({ type: 'checkpoint' } & Awaited<ReturnType<RecordReader['checkpoints']>>[number]);

/** What an export wrote. */
export interface ExportCounts {
  writers: number;
  entries: number;
  checkpoints: number;
  members: number;
}

/** The part of the record an export holds: each writer's entries from `since` (inclusive) to `until` (exclusive). */
export interface ExportRange {
  since: string;
  until: string;
}

/**
 * Writes the record, line by line, to `write` (one JSON object a call, no newline): the whole of it, or with `range`
 * the entries of that time (each writer's run of entries from its first to its last in the range), a `range` line
 * and a `start` line a writer naming the head its run follows, and the checkpoints within each run.
 *
 * @example
 * await exportRecord(reader, (line) => out.write(`${JSON.stringify(line)}\n`));
 */
export async function exportRecord(
  reader: RecordReader,
  write: (line: RecordLine) => void | Promise<void>,
  options: { documents?: DocumentStore; range?: ExportRange } = {},
): Promise<ExportCounts> {
  const counts: ExportCounts = { writers: 0, entries: 0, checkpoints: 0, members: 0 };
  const { range } = options;
  const runs: { writer: string; public_key: string; first: number; last: number }[] = [];
  for (const { writer, public_key } of await reader.writers()) {
    if (!range) {
      runs.push({ writer, public_key, first: 1, last: Number.MAX_SAFE_INTEGER });
      continue;
    }
    const span = await reader.span(writer, range.since, range.until);
    if (span) runs.push({ writer, public_key, ...span });
  }
  if (range) await write({ type: 'range', since: range.since, until: range.until });
  for (const { writer, public_key, first } of runs) {
    await write({ type: 'writer', writer, public_key });
    counts.writers++;
    if (range) {
      const head = first === 1 ? GENESIS : await reader.hashAt(writer, first - 1);
      // An entry before the run that is gone leaves the run nothing to follow: the verifier then names its first entry.
      await write({ type: 'start', writer, seq: first - 1, head: head ?? GENESIS });
    }
  }
  const decided: ChainEntry[] = [];
  for (const { writer, first, last } of runs) {
    let after = first - 1;
    while (after < last) {
      const page = (await reader.entries(writer, after, PAGE)).filter((e) => Number(e.seq) <= last);
      if (page.length === 0) break;
      for (const entry of await restated(reader, page, options.documents)) {
        if (entry.kind === 'approval.decided' || entry.kind === 'approval.voted') decided.push(entry);
        await write({ type: 'entry', ...entry });
        counts.entries++;
      }
      after = Number((page[page.length - 1] as EntryRow).seq);
      if (page.length < PAGE) break;
    }
  }
  for (const line of await signerLinesOf(reader, decided)) {
    await write({ type: 'member', ...line });
    counts.members++;
  }
  for (const { writer, first, last } of runs) {
    for (const checkpoint of await reader.checkpoints(writer)) {
      if (checkpoint.seq < first || checkpoint.seq > last) continue;
      await write({ type: 'checkpoint', ...checkpoint });
      counts.checkpoints++;
    }
  }
  return counts;
}

/**
 * A page of entries with their bodies restated from their rows (or, for a kind with none, as stored); a document's
 * change has its text's digest restated from the version's text in `documents`, when given and the version is kept.
 */
export async function restated(reader: RecordReader, page: readonly EntryRow[], documents?: DocumentStore): Promise<ChainEntry[]> {
  const refs: Record<(typeof ENTRY_SOURCES)[EntryKind], Set<string>> = {
    decisions: new Set(),
    approvals: new Set(),
    identity_changes: new Set(),
  };
  for (const { kind, ref } of page) if (ref !== null && kind in ENTRY_SOURCES) refs[ENTRY_SOURCES[kind as EntryKind]].add(ref);
  const decisions = byKey(await reader.decisions([...refs.decisions]), (r: DecisionRow) => r.call_id);
  const approvals = byKey(await reader.approvals([...refs.approvals]), (r: ApprovalRow) => r.id);
  const seqs = [...refs.identity_changes].map(Number).filter(Number.isSafeInteger);
  const changes = byKey(await reader.identityChanges(seqs), (r: IdentityChangeRow) => String(r.seq));
  const sources = {
    decision: (ref: string) => decisions.get(ref),
    approval: (ref: string) => approvals.get(ref),
    identityChange: (ref: string) => changes.get(ref),
  };
  const digests = documents ? await versionDigests(documents, page) : new Map<string, string>();
  return page.map(({ writer, seq, kind, at, ref, body, prev, hash }) => {
    let stated = bodyFromSource(kind, ref, sources) ?? storedBody(body);
    const digest = ref === null ? undefined : digests.get(ref);
    if (kind === DOCUMENT_CHANGED && digest !== undefined) stated = { ...stated, text_sha256: digest };
    return { writer, seq: Number(seq), kind, at, body: stated, prev, hash };
  });
}

/**
 * The digest of each version a page's document changes name, as the store holds its text now. A version the store no
 * longer lists was pruned (docs/store.md) and keeps its stated digest; one it lists but cannot read is stated as
 * unreadable, so it no longer hashes.
 */
async function versionDigests(documents: DocumentStore, page: readonly EntryRow[]): Promise<Map<string, string>> {
  const digests = new Map<string, string>();
  const listed = new Map<string, Set<number>>();
  for (const { kind, ref } of page) {
    if (kind !== DOCUMENT_CHANGED || ref === null || digests.has(ref)) continue;
    const named = versionOfRef(ref);
    if (!named) continue;
    let sequences = listed.get(named.id);
    if (!sequences) {
      sequences = new Set((await documents.history(named.id).catch(() => [])).map((v) => v.sequence));
      listed.set(named.id, sequences);
    }
    if (!sequences.has(named.sequence)) continue;
    const version = await documents.getVersion(named.id, named.sequence).catch(() => undefined);
    digests.set(ref, version ? textDigest(version.text) : 'unreadable');
  }
  return digests;
}

function byKey<T>(rows: readonly T[], key: (row: T) => string): Map<string, T> {
  return new Map(rows.map((row) => [key(row), row]));
}

/** A stored body, read exactly; one that does not read is stated as such (and so no longer hashes). */
function storedBody(text: string): { [key: string]: JsonValue } {
  const value = readStoredJson(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { unreadable: text.slice(0, 64) };
  return value as { [key: string]: JsonValue };
}
