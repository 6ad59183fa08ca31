// A quorum over real HTTP (docs/policy.md, "Approvers"): the API validates one (revision 4, INVALID_QUORUM); a call
// held for 2 of 3 runs only once two distinct eligible members have approved, each signed on their own; a member's
// second vote counts nothing (ALREADY_VOTED); one denial ends it; racing votes and claims leave one decision and one
// claim; a request written approved with fewer signed votes never runs (APPROVAL_UNSIGNED); and the receipt of the
// claimed call verifies offline, its quorum of signatures with it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, workspace } from './cli-harness.ts';
import { forgeApproval, type LooseJson, postEdit, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  const edit = await postEdit(s, POLICY, s.key('owner'), {
    content: `${JSON.stringify(withQuorum(2), null, 2)}\n`,
    reason: 'test: quorum',
  });
  expect(edit.status, edit.text).toBe(201);
});
afterAll(async () => {
  await s.stop();
});

const POLICY = 'policies/refunds.policy.json';
const REFUNDS = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/refunds.policy.json'), 'utf8'));
const ARGS = { amount: '500', order: 'A-7' };
/** The refunds policy with its approval rule asking for `quorum` approvals. */
function withQuorum(quorum: unknown) {
  return {
    ...REFUNDS,
    rules: REFUNDS.rules.map((r: { id: string; approvers?: object }) =>
      r.id === 'refund-approval' ? { ...r, approvers: { ...r.approvers, quorum } } : r,
    ),
  };
}

type Who = 'owner' | 'admin' | 'approver';
const decide = (who: Who, id: string, verb: 'approve' | 'deny' = 'approve') =>
  s.call('POST', `/v1/approvals/${id}/${verb}`, { key: s.key(who), body: {} });
const claim = (id: string) => s.call('POST', `/v1/approvals/${id}/claim`, { key: s.key('agent'), body: { arguments: ARGS } });
const read = async (id: string): Promise<LooseJson> => (await s.call('GET', `/v1/approvals/${id}`, { key: s.key('owner') })).json;

async function held(): Promise<{ id: string; callId: string }> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: ARGS } });
  expect(r.json.decision, JSON.stringify(r.json)).toBe('require_approval');
  const id = r.json.approval.id as string;
  // The hold's explanation, as the inbox reads it, says what the quorum asks.
  const explained = (await s.call('GET', `/v1/approvals/${id}`, { key: s.key('owner') })).json.explanation;
  expect(JSON.stringify(explained)).toContain('it runs once 2 of the 3 eligible approvers have approved');
  return { id, callId: r.json.call_id as string };
}

describe('a quorum of approvals', () => {
  it('validates a quorum: revision 4 when it reads, INVALID_QUORUM with its path when it does not', async () => {
    const ok = await s.call('POST', '/v1/policies/validate', { key: s.key('developer'), body: { document: withQuorum(2) } });
    expect(ok.json).toMatchObject({ valid: true, revision: 4 });
    for (const bad of [0, 33, 1.5]) {
      const r = await s.call('POST', '/v1/policies/validate', { key: s.key('developer'), body: { document: withQuorum(bad) } });
      expect(r.json.errors).toContainEqual(expect.objectContaining({ code: 'INVALID_QUORUM', path: '/rules/2/approvers/quorum' }));
    }
  });

  it('runs a call only once two members approved, each once; the receipt verifies the two signatures offline', async () => {
    const { id, callId } = await held();
    expect(await read(id)).toMatchObject({ status: 'pending', quorum: 2, approvals_still_needed: 2, votes: [] });
    expect((await decide('approver', id)).json).toMatchObject({ status: 'pending', approvals_still_needed: 1 });
    const again = await decide('approver', id);
    expect([again.status, again.json.error.code]).toEqual([409, 'ALREADY_VOTED']);
    expect((await claim(id)).json.error.code).toBe('NOT_APPROVED');
    const done = await decide('admin', id);
    expect(done.json).toMatchObject({ status: 'approved', approvals_still_needed: 0 });
    expect(done.json.votes.map((v: LooseJson) => v.decision)).toEqual(['approved', 'approved']);
    expect((await claim(id)).status).toBe(200);
    const receipt = await s.call('GET', `/v1/decisions/${callId}/receipt`, { key: s.key('owner') });
    expect(receipt.status, receipt.text).toBe(200);
    expect(receipt.json.approvals.filter((e: LooseJson) => e.kind === 'approval.voted')).toHaveLength(2);
    const run = await runCli('audit', 'verify-receipt', workspace().file('receipt.json', receipt.text));
    expect([run.code, run.stderr]).toEqual([0, '']);
  });

  it('ends the request at the first denial by an eligible member', async () => {
    const { id } = await held();
    expect((await decide('approver', id)).status).toBe(200);
    expect((await decide('owner', id, 'deny')).json).toMatchObject({ status: 'denied', approvals_still_needed: 0 });
    expect((await decide('admin', id)).json.error.code).toBe('ALREADY_DECIDED');
    expect((await claim(id)).json.error.code).toBe('NOT_APPROVED');
  });

  it('racing votes and claims: the quorum is reached once, and the call is claimed once', async () => {
    const { id } = await held();
    const votes = await Promise.all((['owner', 'admin', 'approver'] as const).map((who) => decide(who, id)));
    const codes = votes.map((v) => (v.status === 200 ? 'ok' : v.json.error.code));
    expect(codes.filter((c) => c === 'ok').length).toBeGreaterThanOrEqual(2);
    for (const c of codes) expect(['ok', 'ALREADY_DECIDED']).toContain(c);
    expect((await read(id)).status).toBe('approved');
    const claims = await Promise.all([claim(id), claim(id), claim(id)]);
    expect(claims.filter((c) => c.status === 200)).toHaveLength(1);
  });

  it('never runs a request written approved with fewer signed approvals than its quorum (APPROVAL_UNSIGNED)', async () => {
    const signed = await held();
    await decide('approver', signed.id);
    const one = await decide('admin', signed.id);
    const forged = await held();
    // One member's signed decision copied in, and the row set to approved: one signed vote, not two.
    await forgeApproval(s, forged.id, one.json);
    const r = await claim(forged.id);
    expect([r.status, r.json.error?.code], r.text).toEqual([409, 'APPROVAL_UNSIGNED']);
  });
});
