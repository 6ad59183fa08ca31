// Why a call was held, on GET /v1/approvals/{id} (approvals/explain-hold.ts), over real HTTP: the rule that held
// it with its amount bounds, by the version that held it; what a candidate under trial would decide; nothing for
// the agent; and the list stays without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { startServer, type TestServer } from './server-harness.ts';

const REFUNDS_ID = 'policies/refunds.policy.json';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

async function hold(amount: string): Promise<string> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', {
    key: s.key('agent'),
    body: { tool: 'issue_refund', arguments: { amount } },
  });
  expect(r.json.decision).toBe('require_approval');
  return r.json.approval.id as string;
}

describe('a held refund read by a member', () => {
  it('carries the rule that held it with its amount bounds, and no trial while none runs', async () => {
    const id = await hold('205');
    for (const who of ['approver', 'viewer'] as const) {
      const read = await s.call('GET', `/v1/approvals/${id}`, { key: s.key(who) });
      expect(read.status).toBe(200);
      expect(read.json.explanation.trial).toBeNull();
      expect(read.json.explanation.explanation).toMatchObject({
        decided_by: 'rule',
        rule: {
          id: 'refund-approval',
          effect: 'require_approval',
          amount: { currency: 'USD', bounds: { gt: '100', lte: '1000' }, result: 'true' },
        },
      });
      // The explanation names the policy's operands, never the argument's value.
      expect(JSON.stringify(read.json.explanation)).not.toContain('205');
    }
  });

  it('tells the agent nothing more than its own answer did', async () => {
    const id = await hold('300');
    const read = await s.call('GET', `/v1/approvals/${id}`, { key: s.key('agent') });
    expect(read.status).toBe(200);
    expect(read.json.explanation).toBeNull();
  });

  it('is left out of the list, which stays one read per row', async () => {
    const id = await hold('400');
    const list = await s.call('GET', '/v1/approvals?status=pending', { key: s.key('owner') });
    const listed = list.json.approvals.find((a: { id: string }) => a.id === id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('explanation');
  });
});

describe('a held refund while a candidate of its policy is under trial', () => {
  it('says what the candidate would decide', async () => {
    const laxer = JSON.parse(REFUNDS_POLICY_TEXT);
    laxer.rules[2].amount.gt = '200';
    laxer.rules[3].amount.lte = '200';
    const saved = await s.ctx.store.save({
      id: REFUNDS_ID,
      text: `${JSON.stringify(laxer, null, 2)}\n`,
      author: { kind: 'person', label: 'test' },
      reason: 'a laxer candidate',
      activate: false,
    });
    const started = await s.call('POST', '/v1/trials', {
      key: s.key('admin'),
      body: { document: REFUNDS_ID, sequence: saved.sequence, sample_rate: 1 },
    });
    expect(started.status).toBe(201);
    try {
      const allowed = await s.call('GET', `/v1/approvals/${await hold('150')}`, { key: s.key('approver') });
      expect(allowed.json.explanation.trial).toEqual({ candidate: saved.sequence, decision: 'allow', rule: 'refund-auto' });
      const held = await s.call('GET', `/v1/approvals/${await hold('250')}`, { key: s.key('approver') });
      expect(held.json.explanation.trial).toEqual({ candidate: saved.sequence, decision: 'require_approval', rule: 'refund-approval' });
      expect(held.json.explanation.explanation.rule.amount.bounds).toEqual({ gt: '100', lte: '1000' });
    } finally {
      await s.call('POST', `/v1/trials/${encodeURIComponent(REFUNDS_ID)}/stop`, { key: s.key('admin'), body: {} });
    }
  });
});
