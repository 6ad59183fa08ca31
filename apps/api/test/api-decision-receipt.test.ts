// GET /v1/decisions/{call_id}/receipt over real HTTP, on either state store (docs/audit.md, "Receipts"): a held
// call approved and claimed has a receipt holding its decision entry, its approval's three entries, the path from
// them to a checkpoint this writer signed for it, the keys that verify it and the digest of the policy version; a
// real `tollgate audit verify-receipt` run verifies it with nothing else. Who may read it, and the calls without one.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostgresStateStore } from '../src/server/state/postgres-state.ts';
import type { SqliteStateStore } from '../src/server/state/sqlite-state.ts';
import { runCli, workspace } from './cli-harness.ts';
import { startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const REFUND = { amount: '500', order: 'R-1' };

/** A held call, approved by the approver and claimed by the agent: its call id and approval id. */
async function heldApprovedClaimed(): Promise<{ callId: string; approvalId: string }> {
  const held = await s.call('POST', '/v1/agents/support-bot/calls', {
    key: s.key('agent'),
    body: { tool: 'issue_refund', arguments: REFUND },
  });
  expect(held.json.decision).toBe('require_approval');
  const approvalId = held.json.approval.id as string;
  expect((await s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: { reason: 'ok' } })).status).toBe(
    200,
  );
  const claim = await s.call('POST', `/v1/approvals/${approvalId}/claim`, { key: s.key('agent'), body: { arguments: REFUND } });
  expect(claim.status).toBe(200);
  return { callId: held.json.call_id as string, approvalId };
}

const receiptOf = (callId: string, key = s.key('viewer')) => s.call('GET', `/v1/decisions/${encodeURIComponent(callId)}/receipt`, { key });

describe('GET /v1/decisions/{call_id}/receipt', () => {
  it('states the decision, its approval, the path to a signed checkpoint and the keys, and verifies offline', async () => {
    const { callId, approvalId } = await heldApprovedClaimed();
    const r = await receiptOf(callId);
    expect(r.status, r.text).toBe(200);
    const receipt = r.json;
    const writer = s.ctx.state.recordWriter.id;
    expect(receipt).toMatchObject({ receipt: 1, call_id: callId, covered: true });
    expect(receipt.decision).toMatchObject({ writer, kind: 'decision', body: { call_id: callId, decision: 'require_approval' } });
    expect(receipt.approvals.map((e: { kind: string }) => e.kind)).toEqual(['approval.requested', 'approval.decided', 'approval.claimed']);
    expect(receipt.approvals.every((e: { body: { id: string } }) => e.body.id === approvalId)).toBe(true);
    // The entries up to a checkpoint signed now, as this writer's chain holds them, in order.
    const seqs = receipt.path.map((e: { seq: number }) => e.seq);
    expect(seqs[0]).toBe(receipt.decision.seq);
    expect(seqs).toEqual(seqs.map((_: number, i: number) => seqs[0] + i));
    expect(receipt.checkpoints).toHaveLength(1);
    expect(receipt.checkpoints[0]).toMatchObject({ writer, seq: seqs[seqs.length - 1], head: receipt.path[seqs.length - 1].hash });
    expect(receipt.writers).toEqual([{ writer, public_key: s.ctx.state.recordWriter.publicKey }]);
    const approver = s.keys.members.find((m) => m.role === 'approver');
    expect(receipt.members.map((m: { member: string }) => m.member)).toEqual([approver?.id]);
    const policy = await s.ctx.store.getVersion('policies/refunds.policy.json', 1);
    expect(receipt.policy).toContainEqual({
      document: 'policies/refunds.policy.json',
      version: 1,
      sha256: createHash('sha256')
        .update(policy?.text ?? '', 'utf8')
        .digest('hex'),
    });

    const file = workspace().file('receipt.json', r.text);
    const run = await runCli('audit', 'verify-receipt', file, '--json');
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(run.stdout)).toMatchObject({ verified: true, call_id: callId, approvals: 3, members: 1, checkpoints: 1 });
  });

  it('answers an allowed call a receipt too, covered by the checkpoint that covered it already', async () => {
    const r = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'issue_refund', arguments: { amount: '5' } },
    });
    expect(r.json.decision).toBe('allow');
    const first = await receiptOf(r.json.call_id);
    expect([first.status, first.json.approvals, first.json.covered]).toEqual([200, [], true]);
    const again = await receiptOf(r.json.call_id);
    expect(again.json.checkpoints).toEqual(first.json.checkpoints);
    const run = await runCli('audit', 'verify-receipt', workspace().file('receipt.json', again.text));
    expect(run.code, run.stderr).toBe(0);
  });

  it('is for members: no key is 401, an agent key 403', async () => {
    const { callId } = await heldApprovedClaimed();
    expect((await s.call('GET', `/v1/decisions/${callId}/receipt`)).status).toBe(401);
    const agent = await receiptOf(callId, s.key('agent'));
    expect([agent.status, agent.json.error.code]).toEqual([403, 'MEMBER_REQUIRED']);
  });

  it('answers 404 NOT_FOUND for an unknown call and 409 NOT_RECORDED for a decision with no entry', async () => {
    const unknown = await receiptOf('no-such-call');
    expect([unknown.status, unknown.json.error.code, unknown.json.error.details?.resource]).toEqual([404, 'NOT_FOUND', 'decision']);
    // A decision older than the record: its row with no entry (made so by removing its entry; the last test here).
    const r = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'issue_refund', arguments: { amount: '6' } },
    });
    await unchain(r.json.call_id);
    const old = await receiptOf(r.json.call_id);
    expect([old.status, old.json.error.code]).toEqual([409, 'NOT_RECORDED']);
  });
});

/** Removes a call's entry from the record, as a decision made before the record began has none. */
async function unchain(callId: string): Promise<void> {
  const state = s.ctx.state as SqliteStateStore | PostgresStateStore;
  await state.flushDecisions();
  if (state.kind === 'sqlite') state.db.prepare('DELETE FROM record_entries WHERE ref = ?').run(callId);
  else await state.pool.query('DELETE FROM record_entries WHERE ref = $1', [callId]);
}
