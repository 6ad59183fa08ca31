// A decision's record entry made off the event loop (state/decisions/sqlite-log.ts): while nothing listens for entries
// as they are made, the decision log's writer thread chains the decisions it writes, the record's head handed to it and
// taken back before any entry is made on the event loop. The entry it makes is the one RecordWriter makes (generated
// rows, read back from their values as the thread reads them); what it did not write when it stops is chained on the
// event loop from the newest entry written, with no gap and no entry twice; a listener hears every entry made while it
// listens. Real SQLite files and the real writer thread; the record checked by export and verify.
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChainEntry, type Checkpoint, verifyRecord } from '../src/server/record/chain.ts';
import { GENESIS } from '../src/server/record/chain-form.ts';
import { decisionEntryValues, placeOf } from '../src/server/record/decision-entry.ts';
import { decisionBodyText } from '../src/server/record/entries.ts';
import { exportRecord, type RecordLine } from '../src/server/record/export.ts';
import { type EntryRow, entryValues, RecordWriter } from '../src/server/record/writer.ts';
import { openDatabase } from '../src/server/state/db.ts';
import type { DecisionRow } from '../src/server/state/decisions/model.ts';
import { rowOfValues, valuesOf } from '../src/server/state/decisions/row-values.ts';
import { decisionLogOf } from '../src/server/state/decisions/sqlite-log.ts';
import { SqliteStateStore } from '../src/server/state/sqlite-state.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';
import { decisionRow } from './state-contract-backends.ts';

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('"', '\\', '\n', 'é', '\u2028'),
);
const optional = fc.option(text, { nil: null });
const row: fc.Arbitrary<DecisionRow> = fc.record({
  call_id: fc.uuid(),
  agent: text,
  tool: text,
  action: optional,
  amount: fc.option(fc.constantFrom('0', '1.50', '-3', '1e400', '0.10'), { nil: null }),
  currency: optional,
  decision: fc.constantFrom('allow', 'deny', 'require_approval'),
  rule: optional,
  code: optional,
  versions: text,
  arguments: optional,
  arguments_digest: text,
  session: optional,
  created_at: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
  shadow_differences: fc.option(optional, { nil: undefined }),
  via: fc.option(fc.option(fc.constantFrom('http' as const, 'mcp' as const), { nil: null }), { nil: undefined }),
});

type EntryLine = Extract<RecordLine, { type: 'entry' }>;

/** The record as exported, verified in process as `tollgate audit verify` does, and its decision entries' refs. */
async function verified(state: SqliteStateStore): Promise<{ ok: boolean; decisions: { seq: number; call: string }[] }> {
  const lines: RecordLine[] = [];
  await exportRecord(state.recordReader, (line) => {
    lines.push(JSON.parse(JSON.stringify(line)) as RecordLine);
  });
  const entries: ChainEntry[] = lines.filter((l): l is EntryLine => l.type === 'entry').map(({ type: _t, ...e }) => e);
  const checkpoints = lines.flatMap((l) => (l.type === 'checkpoint' ? [(({ type: _t, ...c }) => c)(l) as Checkpoint] : []));
  const keys = new Map(lines.flatMap((l) => (l.type === 'writer' ? [[l.writer, createPublicKey(l.public_key)] as const] : [])));
  const verdict = verifyRecord(entries, checkpoints, keys);
  const decisions = entries.filter((e) => e.kind === 'decision').map((e) => ({ seq: e.seq, call: e.body.call_id as string }));
  return { ok: verdict.ok, decisions };
}

async function withState(work: (state: SqliteStateStore, db: ReturnType<typeof openDatabase>) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-chain-'));
  const db = openDatabase(join(dir, 'tollgate.db'));
  const state = new SqliteStateStore(db, testCustodialKeys());
  try {
    await work(state, db);
  } finally {
    await state.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function decide(state: SqliteStateStore, n: number, at: number): string[] {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = decisionRow({ at: new Date(Date.UTC(2026, 11, 5, 9, 0, 0, at + i)) });
    ids.push(r.call_id);
    void state.recordDecision(r.agent, undefined, () => ({ row: r }));
  }
  return ids;
}

const turn = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a decision's entry made by the writer thread", () => {
  it('is the entry the record writer makes, from the row read back from its values (property)', () => {
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), (rows) => {
        const writer = new RecordWriter(new Date(), 'writer-1');
        let head = { seq: 0, hash: GENESIS };
        for (const r of rows) {
          const made: EntryRow = writer.append('decision', r.created_at, r.call_id, decisionBodyText(r));
          const values = decisionEntryValues('writer-1', head, rowOfValues(valuesOf(r), 0));
          expect(values).toEqual(entryValues(made));
          head = placeOf(values);
        }
        expect(head).toEqual({ seq: writer.position.seq, hash: writer.position.hash });
      }),
      { numRuns: 60 },
    );
  });

  it('leaves what it did not write to be chained on the event loop, from the newest entry written (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ written: fc.nat(6), sent: fc.nat(6), queued: fc.nat(6), after: fc.nat(4), wait: fc.constantFrom(0, 1, 3, 8) }),
        async ({ written, sent, queued, after, wait }) => {
          await withState(async (state, db) => {
            const ids = decide(state, written, 0);
            await state.flushDecisions();
            ids.push(...decide(state, sent, 100));
            // A batch sent to the thread, which may have written it (or be writing it) when the log takes over.
            await turn(wait);
            ids.push(...decide(state, queued, 200));
            // What the process's exit does: the rows not known written are written here, chained from the database.
            decisionLogOf(db).writeHere();
            ids.push(...decide(state, after, 300));
            await state.flushDecisions();
            await state.checkpointRecord(new Date());
            const record = await verified(state);
            expect(record.ok).toBe(true);
            expect(record.decisions.map((d) => d.call)).toEqual(ids);
            expect(record.decisions.map((d) => d.seq)).toEqual(ids.map((_, i) => i + 1));
          });
        },
      ),
      { numRuns: 16 },
    );
  });

  it('hands the head back before an entry is made on the event loop, and a listener hears each entry made while it listens', async () => {
    await withState(async (state) => {
      const ids = decide(state, 3, 0);
      await turn(3);
      const heard: EntryRow[] = [];
      const stop = state.onRecord((event) => {
        if ('entry' in event) heard.push(event.entry);
      });
      const listened = decide(state, 3, 10);
      ids.push(...listened);
      stop();
      ids.push(...decide(state, 2, 20));
      // A change chained on the event loop between the thread's entries.
      await state.createMember('ana', 'approver', new Date(Date.UTC(2026, 11, 5, 9, 1)));
      ids.push(...decide(state, 2, 30));
      await state.flushDecisions();
      await state.checkpointRecord(new Date());
      expect(heard.map((e) => [e.kind, e.ref, e.seq])).toEqual(listened.map((id, i) => ['decision', id, 4 + i]));
      const record = await verified(state);
      expect(record.ok).toBe(true);
      expect(record.decisions.map((d) => d.call)).toEqual(ids);
      // The member's entry sits between the decisions recorded before and after it.
      expect(record.decisions.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 10, 11]);
    });
  });
});
