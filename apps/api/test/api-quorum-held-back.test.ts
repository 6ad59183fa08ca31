// A policy whose approvers name a quorum is language revision 4, which this build validates but does not decide yet
// (docs/policy.md, "Approvers"): the API reports its revision and refuses a bad quorum, and a version that runs
// anyway (no live node held it back) is never decided on one approval: every call of its agent is denied
// LANGUAGE_REVISION_UNSUPPORTED, nothing is held.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, postEdit, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const POLICY = 'policies/refunds.policy.json';
const REFUNDS = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/refunds.policy.json'), 'utf8'));
/** The refunds policy with its approval rule asking for `quorum` approvals. */
function withQuorum(quorum: unknown) {
  return {
    ...REFUNDS,
    rules: REFUNDS.rules.map((r: { id: string; approvers?: object }) =>
      r.id === 'refund-approval' ? { ...r, approvers: { ...r.approvers, quorum } } : r,
    ),
  };
}

describe('a quorum, held back by the language gate', () => {
  it('validates a quorum: revision 4 when it reads, INVALID_QUORUM with its path when it does not', async () => {
    const ok = await s.call('POST', '/v1/policies/validate', { key: s.key('developer'), body: { document: withQuorum(2) } });
    expect(ok.json).toMatchObject({ valid: true, revision: 4 });
    for (const bad of [0, 33, 1.5]) {
      const r = await s.call('POST', '/v1/policies/validate', { key: s.key('developer'), body: { document: withQuorum(bad) } });
      expect(r.json.valid, JSON.stringify(r.json)).toBe(false);
      expect(r.json.errors).toContainEqual(expect.objectContaining({ code: 'INVALID_QUORUM', path: '/rules/2/approvers/quorum' }));
    }
  });

  it('never decides a running quorum policy on one approval: the call is denied, nothing is held', async () => {
    const edit = await postEdit(s, POLICY, s.key('owner'), {
      content: `${JSON.stringify(withQuorum(2), null, 2)}\n`,
      reason: 'test: quorum',
    });
    expect(edit.status, edit.text).toBe(201);
    const before = await countRows(s, 'approvals');
    const r = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'issue_refund', arguments: { amount: '500', order: 'A-7' } },
    });
    expect(r.json).toMatchObject({ decision: 'deny', code: 'LANGUAGE_REVISION_UNSUPPORTED' });
    expect(await countRows(s, 'approvals')).toBe(before);
  });
});
