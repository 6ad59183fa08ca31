// The record read back for an export or a receipt (docs/audit.md), by statements either dialect runs: the writers
// and their public keys, each writer's entries a page at a time, its checkpoints, and the rows entries state (read by
// their refs, a page's worth at once), with the keys of the members who signed approvals.
import type { ApprovalRow } from '../state/approvals/model.ts';
import type { DecisionRow } from '../state/decisions/model.ts';
import type { Placeholder } from '../state/statement.ts';
import { readStoredJson } from '../state/stored-json.ts';
import type { Checkpoint } from './chain.ts';
import type { IdentityChangeRow } from './entries.ts';
import { ENTRY_COLUMNS, type EntryRow } from './writer.ts';

/** Runs one statement and answers its rows (a SQLite connection's or a PostgreSQL pool's). */
export type RunQuery = <T>(sql: string, params: readonly unknown[]) => Promise<T[]>;

export interface WriterRow {
  writer: string;
  public_key: string;
  started_at: string;
}

/** How many refs one statement reads at most (a page of entries' worth). */
export const REFS_AT_ONCE = 500;

export class RecordReader {
  constructor(
    private readonly run: RunQuery,
    private readonly mark: Placeholder,
  ) {}

  /** Every writer, oldest first. */
  writers(): Promise<WriterRow[]> {
    return this.run<WriterRow>('SELECT writer, public_key, started_at FROM record_writers ORDER BY started_at, writer', []);
  }

  /** A writer's entries after `afterSeq`, in order, at most `limit`. */
  entries(writer: string, afterSeq: number, limit: number): Promise<EntryRow[]> {
    const m = this.mark;
    return this.run<EntryRow>(
      `SELECT ${ENTRY_COLUMNS.join(', ')} FROM record_entries WHERE writer = ${m(1)} AND seq > ${m(2)} ORDER BY seq LIMIT ${m(3)}`,
      [writer, afterSeq, limit],
    );
  }

  /** The first and last of a writer's entries with `since <= at < until` (ISO times), or undefined when it has none. */
  async span(writer: string, since: string, until: string): Promise<{ first: number; last: number } | undefined> {
    const m = this.mark;
    const [row] = await this.run<{ first: number | null; last: number | null }>(
      `SELECT MIN(seq) AS first, MAX(seq) AS last FROM record_entries WHERE writer = ${m(1)} AND at >= ${m(2)} AND at < ${m(3)}`,
      [writer, since, until],
    );
    return row?.first == null || row.last == null ? undefined : { first: Number(row.first), last: Number(row.last) };
  }

  /** The hash of a writer's entry `seq`, as stored (GENESIS's place, 0, is not stored). */
  async hashAt(writer: string, seq: number): Promise<string | undefined> {
    const m = this.mark;
    const [row] = await this.run<{ hash: string }>(`SELECT hash FROM record_entries WHERE writer = ${m(1)} AND seq = ${m(2)}`, [
      writer,
      seq,
    ]);
    return row?.hash;
  }

  /** The entries that state the row `ref` (a call's decision, an approval's request, decision and claim). */
  entriesOf(ref: string): Promise<EntryRow[]> {
    return this.run<EntryRow>(
      `SELECT ${ENTRY_COLUMNS.join(', ')} FROM record_entries WHERE ref = ${this.mark(1)} ORDER BY at, writer, seq`,
      [ref],
    );
  }

  /** A writer's checkpoints, in order; a `seen` that does not read is stated as none (so its signature fails). */
  async checkpoints(writer: string): Promise<Checkpoint[]> {
    const rows = await this.run<Omit<Checkpoint, 'seen'> & { seen: string }>(
      `SELECT writer, seq, head, at, seen, signature FROM record_checkpoints WHERE writer = ${this.mark(1)} ORDER BY seq`,
      [writer],
    );
    return rows.map((row) => ({ ...row, seen: seenOf(readStoredJson(row.seen)) }));
  }

  /** The first checkpoint of the writer at or after entry `seq`: the one that covers it. */
  async checkpointCovering(writer: string, seq: number): Promise<Checkpoint | undefined> {
    const [row] = await this.run<Omit<Checkpoint, 'seen'> & { seen: string }>(
      `SELECT writer, seq, head, at, seen, signature FROM record_checkpoints WHERE writer = ${this.mark(1)} AND seq >= ${this.mark(2)} ORDER BY seq LIMIT 1`,
      [writer, seq],
    );
    return row ? { ...row, seen: seenOf(readStoredJson(row.seen)) } : undefined;
  }

  decisions(callIds: readonly string[]): Promise<DecisionRow[]> {
    return this.byKeys<DecisionRow>('SELECT * FROM decisions WHERE call_id', callIds);
  }

  approvals(ids: readonly string[]): Promise<ApprovalRow[]> {
    return this.byKeys<ApprovalRow>('SELECT * FROM approvals WHERE id', ids);
  }

  /** The approval requests of a call (a held call has one), for its receipt. */
  approvalsOfCall(callId: string): Promise<ApprovalRow[]> {
    return this.run<ApprovalRow>(`SELECT * FROM approvals WHERE call_id = ${this.mark(1)} ORDER BY created_at, id`, [callId]);
  }

  identityChanges(seqs: readonly number[]): Promise<IdentityChangeRow[]> {
    return this.byKeys<IdentityChangeRow>(
      'SELECT CAST(seq AS INTEGER) AS seq, at, actor, action, subject, details FROM identity_changes WHERE seq',
      seqs,
    );
  }

  /** The public keys of members by id (a removed member's too: their signatures still verify). */
  memberKeys(ids: readonly string[]): Promise<{ id: string; public_key: string }[]> {
    return this.byKeys<{ id: string; public_key: string }>('SELECT id, public_key FROM members WHERE id', ids);
  }

  /** The public keys of credentials members hold, by id (a revoked one's too: what it signed still verifies). */
  credentialKeys(
    ids: readonly string[],
  ): Promise<{ id: string; member_id: string; kind: 'passkey' | 'device'; public_key: string; rp_id: string | null }[]> {
    return this.byKeys('SELECT id, member_id, kind, public_key, rp_id FROM member_credentials WHERE id', ids);
  }

  private async byKeys<T>(select: string, keys: readonly (string | number)[]): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < keys.length; i += REFS_AT_ONCE) {
      const part = keys.slice(i, i + REFS_AT_ONCE);
      const marks = part.map((_, j) => this.mark(j + 1)).join(', ');
      out.push(...(await this.run<T>(`${select} IN (${marks})`, part)));
    }
    return out;
  }
}

/** A checkpoint's `seen` as stored, if it has the shape; else none. */
function seenOf(value: unknown): Checkpoint['seen'] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return {};
  const seen: Checkpoint['seen'] = {};
  for (const [writer, head] of Object.entries(value)) {
    const { seq, head: hash } = (head ?? {}) as { seq?: unknown; head?: unknown };
    if (typeof seq !== 'number' || typeof hash !== 'string') return {};
    seen[writer] = { seq, head: hash };
  }
  return seen;
}
