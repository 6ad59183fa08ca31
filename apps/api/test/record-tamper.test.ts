// The record kept by both state stores (docs/audit.md), tampered with as someone with the database would: a history
// is made through the StateStore (decisions of two writers, a held call approved and claimed, a member added),
// checkpointed, exported as `tollgate audit export` exports it, and checked by a real `tollgate audit verify` run.
// The untouched export verifies; each edit of the rows behind it is caught, naming the first entry it breaks.
import { describe, expect, it } from 'vitest';
import { type ExportRange, exportRecord } from '../src/server/record/export.ts';
import type { StateStore } from '../src/server/state/state-store.ts';
import { runCli, workspace } from './cli-harness.ts';
import { decideAs } from './custodial-test-keys.ts';
import { approvalRow, BACKENDS, decisionRow, nextTurn, type StateFixture, titleOf } from './state-contract-backends.ts';

interface History {
  /** Call ids in the order a's chain holds them, and b's. */
  aCalls: string[];
  bCalls: string[];
  approval: string;
  held: string;
}

const T0 = Date.parse('2026-12-01T09:00:00.000Z');
const at = (s: number) => new Date(T0 + s * 1000);

async function decide(state: StateStore, over: Parameters<typeof decisionRow>[0]): Promise<string> {
  const row = decisionRow(over);
  await state.recordDecision(row.agent, row.session ?? undefined, () => ({ row }));
  return row.call_id;
}

/** a: 3 decisions, a held call approved and claimed, a member added, a checkpoint, one more decision; b: 2 and a checkpoint. */
async function makeHistory(f: StateFixture): Promise<History> {
  const owner = await f.a.createMember('olivia', 'owner', at(0));
  const aCalls = [
    await decide(f.a, { at: at(1), decision: 'allow' }),
    await decide(f.a, { at: at(2), decision: 'deny', rule: 'no-refunds', code: 'POLICY_DENY' }),
    await decide(f.a, { at: at(3), amount: '120.50', currency: 'EUR' }),
  ];
  const heldRow = decisionRow({ at: at(4), decision: 'require_approval', rule: 'big-refunds' });
  const approval = approvalRow(heldRow, [owner.id]);
  approval.created_at = heldRow.created_at;
  await f.a.recordDecision(heldRow.agent, undefined, () => ({ row: heldRow, approval }));
  aCalls.push(heldRow.call_id);
  expect((await decideAs(f.a, approval.id, owner, 'approved', 'fine', at(5))).ok).toBe(true);
  expect((await f.a.claimApproval(approval.id, heldRow.arguments_digest, at(6))).ok).toBe(true);
  await f.a.createMember('ravi', 'approver', at(7));
  // b's calls are of a session: on PostgreSQL the database chains them as it writes them (decisions/postgres-log.ts).
  const bCalls = [
    await decide(f.b, { at: at(8), agent: 'agent-b', session: 's1' }),
    await decide(f.b, { at: at(9), agent: 'agent-b', session: 's1' }),
  ];
  await f.b.checkpointRecord(at(10));
  await f.a.checkpointRecord(at(11));
  aCalls.push(await decide(f.a, { at: at(12) }));
  await f.a.flushDecisions();
  return { aCalls, bCalls, approval: approval.id, held: heldRow.call_id };
}

/** Exports the record as the CLI does and verifies it with a real `tollgate audit verify --json` run. */
async function exportAndVerify(
  state: StateStore,
  range?: ExportRange,
): Promise<{ code: number; verdict: Record<string, unknown>; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  await exportRecord(
    state.recordReader,
    (line) => {
      lines.push(JSON.parse(JSON.stringify(line)));
    },
    range ? { range } : {},
  );
  const file = workspace().file('record.jsonl', `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  const run = await runCli('audit', 'verify', file, '--json');
  return { code: run.code, verdict: JSON.parse(run.stdout) as Record<string, unknown>, lines };
}

/** The exported entry that states `ref` with `kind`, as {writer, seq}. */
function entryOf(lines: readonly Record<string, unknown>[], kind: string, ref: (body: Record<string, unknown>) => boolean) {
  const line = lines.find((l) => l.type === 'entry' && l.kind === kind && ref(l.body as Record<string, unknown>));
  if (!line) throw new Error(`no ${kind} entry`);
  return { writer: line.writer as string, seq: line.seq as number };
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(`the record on the ${titleOf(backend)}`, () => {
    async function withHistory(work: (f: StateFixture, h: History, before: Record<string, unknown>[]) => Promise<void>) {
      const f = await backend.open();
      try {
        const h = await makeHistory(f);
        const untouched = await exportAndVerify(f.a);
        expect(untouched.code).toBe(0);
        await work(f, h, untouched.lines);
      } finally {
        await f.close();
      }
    }

    it('verifies untouched: every decision, approval step and member change chained, by two writers', async () => {
      await withHistory(async (f) => {
        const { verdict, lines } = await exportAndVerify(f.a);
        // a: 5 decisions, the request, its decision and claim, two members added; b: 2 decisions.
        expect(verdict).toEqual({ verified: true, entries: 12, checkpoints: 2, writers: 2 });
        const kinds = lines.filter((l) => l.type === 'entry').map((l) => l.kind);
        expect(kinds.filter((k) => k === 'decision')).toHaveLength(7);
        expect(kinds).toEqual(expect.arrayContaining(['approval.requested', 'approval.decided', 'approval.claimed', 'identity.changed']));
        expect(lines.filter((l) => l.type === 'member')).toHaveLength(1);
        // No argument value reaches the record: the arguments' digest does.
        expect(JSON.stringify(lines)).not.toContain('"n":1');
      });
    });

    it('verifies decisions queued in one turn, more than one statement writes at once, in the order decided', async () => {
      const f = await backend.open();
      try {
        // 53 in one turn and 7 in the next: the decision log writes them in batches, many rows a statement
        // (decisions/log-writer.worker.ts), the rest one a statement.
        const rows = Array.from({ length: 60 }, (_, i) => decisionRow({ at: at(i), decision: i % 3 === 0 ? 'deny' : 'allow' }));
        const queued = rows.slice(0, 53).map((row) => f.a.recordDecision(row.agent, undefined, () => ({ row })));
        await Promise.all(queued);
        await nextTurn();
        for (const row of rows.slice(53)) await f.a.recordDecision(row.agent, undefined, () => ({ row }));
        await f.a.flushDecisions();
        const { code, verdict, lines } = await exportAndVerify(f.a);
        expect(code).toBe(0);
        expect(verdict).toMatchObject({ verified: true, entries: 60 });
        const decided = lines
          .filter((l) => l.type === 'entry' && l.kind === 'decision')
          .map((l) => (l.body as { call_id: string }).call_id);
        expect(decided).toEqual(rows.map((r) => r.call_id));
        const listed = await f.a.recordedDecisions({ limit: 100 });
        expect(listed.map((r) => r.call_id).sort()).toEqual(rows.map((r) => r.call_id).sort());
        expect(listed.find((r) => r.call_id === rows[40]?.call_id)).toMatchObject({ decision: 'allow', created_at: rows[40]?.created_at });
      } finally {
        await f.close();
      }
    });

    it('names a decision row edited, or deleted, at its entry', async () => {
      await withHistory(async (f, h, before) => {
        const denied = h.aCalls[1] as string;
        const target = entryOf(before, 'decision', (b) => b.call_id === denied);
        await f.exec("UPDATE decisions SET decision = 'allow', rule = NULL WHERE call_id = ?", [denied]);
        expect((await exportAndVerify(f.a)).verdict).toMatchObject({ verified: false, reason: 'hash', ...target });
        await f.exec('DELETE FROM decisions WHERE call_id = ?', [denied]);
        expect((await exportAndVerify(f.a)).verdict).toMatchObject({ verified: false, reason: 'hash', ...target });
      });
    });

    it('names two entries swapped, and an entry removed with its row', async () => {
      await withHistory(async (f, h, before) => {
        const first = entryOf(before, 'decision', (b) => b.call_id === h.bCalls[0]);
        await f.exec('UPDATE record_entries SET seq = -1 WHERE writer = ? AND seq = 1', [first.writer]);
        await f.exec('UPDATE record_entries SET seq = 1 WHERE writer = ? AND seq = 2', [first.writer]);
        await f.exec('UPDATE record_entries SET seq = 2 WHERE writer = ? AND seq = -1', [first.writer]);
        const swapped = (await exportAndVerify(f.a)).verdict;
        expect(swapped).toMatchObject({ verified: false, writer: first.writer, seq: 1 });
        expect(['link', 'hash']).toContain(swapped.reason);
      });
      await withHistory(async (f, h, before) => {
        const removed = entryOf(before, 'decision', (b) => b.call_id === h.aCalls[2]);
        await f.exec('DELETE FROM record_entries WHERE writer = ? AND seq = ?', [removed.writer, removed.seq]);
        await f.exec('DELETE FROM decisions WHERE call_id = ?', [h.aCalls[2]]);
        expect((await exportAndVerify(f.a)).verdict).toMatchObject({
          verified: false,
          reason: 'order',
          writer: removed.writer,
          seq: removed.seq + 1,
        });
      });
    });

    it("names an approval's signature altered, even with its entry's body altered to match", async () => {
      await withHistory(async (f, h, before) => {
        const decided = entryOf(before, 'approval.decided', (b) => b.id === h.approval);
        await f.exec("UPDATE approvals SET signature = 'AAAA' WHERE id = ?", [h.approval]);
        expect((await exportAndVerify(f.a)).verdict).toMatchObject({ verified: false, reason: 'hash', ...decided });
      });
    });

    it('names the last entries truncated under a checkpoint, and a forged checkpoint', async () => {
      await withHistory(async (f, h, before) => {
        // ravi's addition: a's last entry under its checkpoint.
        const changes = before.filter((l) => l.type === 'entry' && l.kind === 'identity.changed');
        const ravi = changes[changes.length - 1] as Record<string, unknown>;
        const last = { writer: ravi.writer as string, seq: ravi.seq as number };
        await f.exec('DELETE FROM record_entries WHERE writer = ? AND seq >= ?', [last.writer, last.seq]);
        await f.exec('DELETE FROM decisions WHERE call_id = ?', [h.aCalls[5]]);
        expect((await exportAndVerify(f.a)).verdict).toMatchObject({
          verified: false,
          reason: 'truncated',
          writer: last.writer,
          seq: last.seq,
        });
      });
      await withHistory(async (f, _h, before) => {
        const checkpoint = before.find((l) => l.type === 'checkpoint') as Record<string, unknown>;
        await f.exec('UPDATE record_checkpoints SET head = ? WHERE writer = ? AND seq = ?', [
          'f'.repeat(64),
          checkpoint.writer,
          checkpoint.seq,
        ]);
        expect((await exportAndVerify(f.a)).verdict).toMatchObject({ verified: false, reason: 'signature', writer: checkpoint.writer });
      });
    });

    it('exports a time range that verifies on its own, and names an edit inside it', async () => {
      await withHistory(async (f, h) => {
        const range = { since: at(2).toISOString(), until: at(9).toISOString() };
        const part = await exportAndVerify(f.a, range);
        expect(part.verdict).toMatchObject({ verified: true });
        const calls = part.lines
          .filter((l) => l.type === 'entry' && l.kind === 'decision')
          .map((l) => (l.body as { call_id: string }).call_id);
        // a's calls at 2, 3 and 4 (held), and b's at 8; not a's first (at 1) nor its last (at 12).
        expect(calls.sort()).toEqual([h.aCalls[1], h.aCalls[2], h.aCalls[3], h.bCalls[0]].sort());
        expect(part.lines[0]).toEqual({ type: 'range', ...range });
        await f.exec("UPDATE decisions SET decision = 'deny' WHERE call_id = ?", [h.aCalls[2]]);
        expect((await exportAndVerify(f.a, range)).verdict).toMatchObject({ verified: false, reason: 'hash' });
      });
    });

    it('names the claim of a request approved in the database, with no signed approval', async () => {
      await withHistory(async (f) => {
        const owner = await f.a.findMember('olivia');
        const row = decisionRow({ at: at(13), decision: 'require_approval', rule: 'big-refunds' });
        const approval = approvalRow(row, [owner?.id as string]);
        approval.created_at = row.created_at;
        await f.a.recordDecision(row.agent, undefined, () => ({ row, approval }));
        // Approved by someone with the database, not by a member's signature: the agent's claim goes through.
        await f.exec("UPDATE approvals SET status = 'approved', decided_by = ?, decided_at = ? WHERE id = ?", [
          owner?.id,
          at(14).toISOString(),
          approval.id,
        ]);
        expect((await f.a.claimApproval(approval.id, row.arguments_digest, at(15))).ok).toBe(true);
        const { verdict, lines } = await exportAndVerify(f.a);
        const claimed = entryOf(lines, 'approval.claimed', (b) => b.id === approval.id);
        expect(verdict).toMatchObject({ verified: false, reason: 'approval_signature', ...claimed });
      });
    });
  });
}
