// Simulations and trials over real HTTP: example and recorded calls, a candidate beside the running
// version, calls whose arguments are gone reported ARGUMENTS_REQUIRED, and trials started, read and stopped.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT } from './rules-fixtures.ts';
import { startServer, type TestServer } from './server-harness.ts';

const REFUNDS_ID = 'policies/refunds.policy.json';
const REFUNDS = JSON.parse(REFUNDS_POLICY_TEXT);
const REFUND_TOOL = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };
const READ_TOOL = { name: 'read_order', action: 'orders.read' };

/** The refunds policy with refunds up to 200 (not 100) allowed outright. */
function laxerRefunds() {
  const doc = structuredClone(REFUNDS);
  doc.rules[2].amount.gt = '200';
  doc.rules[3].amount.lte = '200';
  return doc;
}

const SUITE = {
  tools: [REFUND_TOOL, READ_TOOL],
  examples: [
    { name: 'small refund', tool: 'issue_refund', arguments: { amount: '50' }, expect: { decision: 'allow' } },
    { name: 'mid refund', tool: 'issue_refund', arguments: { amount: '150' }, expect: { decision: 'require_approval' } },
    { name: 'big refund', tool: 'issue_refund', arguments: { amount: '5000' }, expect: { decision: 'deny', rule: 'refund-over-limit' } },
    { name: 'read', tool: 'read_order', arguments: { id: '7' }, expect: { decision: 'allow' } },
    { name: 'forgotten refund', tool: 'issue_refund', arguments: null, expect: { decision: 'allow' } },
    { name: 'forgotten read', tool: 'read_order', arguments: null, expect: { decision: 'allow' } },
  ],
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

function post(path: string, body: unknown, who: Parameters<TestServer['key']>[0] = 'developer') {
  return server.call('POST', path, { key: server.key(who), body });
}

/** Records a gate decision at `at` through the server's state store, as the gate would. */
async function record(callId: string, tool: string, action: string, args: Record<string, unknown> | null, decision: string, at: string) {
  const text = JSON.stringify(args ?? {});
  const row = {
    call_id: callId,
    agent: 'support-bot',
    tool,
    action,
    amount: null,
    currency: null,
    decision,
    rule: null,
    code: null,
    versions: '{}',
    arguments: args === null ? null : text,
    arguments_digest: createHash('sha256').update(text).digest('hex'),
    session: null,
    created_at: at,
  };
  await server.ctx.state.recordDecision('support-bot', undefined, () => ({ row }));
}

describe('POST /v1/simulations', () => {
  it('decides example calls with the running version, compared with what the examples expect', async () => {
    const r = await post('/v1/simulations', { document: { id: REFUNDS_ID }, calls: { examples: SUITE } }, 'viewer');
    expect(r.status).toBe(200);
    expect(r.json.compared).toBe('expected');
    expect(r.json.counts).toEqual({ calls: 6, agreed: 5, differed: 0, not_evaluable: 1 });
    const byName = Object.fromEntries(r.json.calls.map((c: { name: string }) => [c.name, c]));
    expect(byName['mid refund']).toMatchObject({ status: 'agreed', document: { decision: 'require_approval', rule: 'refund-approval' } });
    expect(byName['forgotten refund']).toMatchObject({
      status: 'not_evaluable',
      code: 'ARGUMENTS_REQUIRED',
      document: { not_evaluable: true, code: 'ARGUMENTS_REQUIRED' },
    });
    // A read's decision does not depend on its arguments, so it is decided without them.
    expect(byName['forgotten read']).toMatchObject({ status: 'agreed', document: { decision: 'allow', rule: 'read-orders' } });
  });

  it('decides each call with a candidate beside the version, counting agreed and differed', async () => {
    const r = await post('/v1/simulations', {
      document: { id: REFUNDS_ID, sequence: 1 },
      candidate: laxerRefunds(),
      calls: { examples: SUITE },
    });
    expect(r.status).toBe(200);
    expect(r.json.compared).toBe('candidate');
    expect(r.json.counts).toEqual({ calls: 6, agreed: 4, differed: 1, not_evaluable: 1 });
    const mid = r.json.calls.find((c: { name: string }) => c.name === 'mid refund');
    expect(mid).toMatchObject({
      status: 'differed',
      document: { decision: 'require_approval', rule: 'refund-approval' },
      candidate: { decision: 'allow', rule: 'refund-auto' },
    });
  });

  it('replays recorded calls, reporting those whose arguments are gone ARGUMENTS_REQUIRED, never guessed', async () => {
    await record('call-1', 'issue_refund', 'refund.issue', { amount: '50' }, 'allow', '2026-01-01T10:00:00.000Z');
    await record('call-2', 'issue_refund', 'refund.issue', { amount: '150' }, 'require_approval', '2026-01-01T11:00:00.000Z');
    await record('call-3', 'issue_refund', 'refund.issue', null, 'allow', '2026-01-01T12:00:00.000Z');
    await record('call-4', 'read_order', 'orders.read', null, 'allow', '2026-01-01T13:00:00.000Z');
    await record('call-5', 'read_order', 'orders.read', { id: '1' }, 'allow', '2026-02-01T00:00:00.000Z');
    const r = await post('/v1/simulations', {
      document: { id: REFUNDS_ID },
      candidate: laxerRefunds(),
      calls: { recorded: { agent: 'support-bot', since: '2026-01-01T00:00:00Z', until: '2026-01-31T23:59:59Z' } },
    });
    expect(r.status).toBe(200);
    expect(r.json.calls.map((c: { name: string; status: string }) => `${c.name} ${c.status}`)).toEqual([
      'call-1 agreed',
      'call-2 differed',
      'call-3 not_evaluable',
      'call-4 agreed',
    ]);
    expect(r.json.counts).toEqual({ calls: 4, agreed: 2, differed: 1, not_evaluable: 1 });
    expect(r.json.calls[2]).toMatchObject({ code: 'ARGUMENTS_REQUIRED', recorded: { decision: 'allow' } });

    const alone = await post('/v1/simulations', { document: { id: REFUNDS_ID }, calls: { recorded: { agent: 'support-bot' } } });
    expect(alone.json.compared).toBe('recorded');
    expect(alone.json.counts).toEqual({ calls: 5, agreed: 4, differed: 0, not_evaluable: 1 });
    const nobody = await post('/v1/simulations', { document: { id: REFUNDS_ID }, calls: { recorded: { agent: 'nobody' } } });
    expect(nobody.json.counts.calls).toBe(0);
  });

  it('decides pasted calls like examples: compared with expect, only decided without it, null arguments not guessed', async () => {
    const calls = [
      { tool: REFUND_TOOL, arguments: { amount: '50' }, expect: { decision: 'allow' } },
      { tool: REFUND_TOOL, arguments: { amount: '150' }, expect: { decision: 'require_approval', rule: 'refund-approval' } },
      { tool: REFUND_TOOL, arguments: { amount: '5000' }, expect: { decision: 'allow' } },
      { tool: REFUND_TOOL, arguments: null, expect: { decision: 'allow' } },
      { tool: READ_TOOL, arguments: null },
      { tool: READ_TOOL, arguments: { id: '7' } },
    ];
    const r = await post('/v1/simulations', { document: { id: REFUNDS_ID }, calls }, 'viewer');
    expect(r.status, r.text).toBe(200);
    expect(r.json.compared).toBe('expected');
    expect(r.json.counts).toEqual({ calls: 6, agreed: 2, differed: 1, not_evaluable: 1 });
    expect(r.json.calls.map((c: { name: string; status: string }) => `${c.name} ${c.status}`)).toEqual([
      '/calls/0 agreed',
      '/calls/1 agreed',
      '/calls/2 differed',
      '/calls/3 not_evaluable',
      '/calls/4 decided',
      '/calls/5 decided',
    ]);
    expect(r.json.calls[2]).toMatchObject({ tool: 'issue_refund', document: { decision: 'deny', rule: 'refund-over-limit' } });
    expect(r.json.calls[3]).toMatchObject({ code: 'ARGUMENTS_REQUIRED', document: { not_evaluable: true, code: 'ARGUMENTS_REQUIRED' } });
    expect(r.json.calls[4]).toMatchObject({ tool: 'read_order', document: { decision: 'allow', rule: 'read-orders' } });

    const beside = await post('/v1/simulations', { document: { id: REFUNDS_ID }, candidate: laxerRefunds(), calls });
    expect(beside.json.compared).toBe('candidate');
    expect(beside.json.counts).toEqual({ calls: 6, agreed: 4, differed: 1, not_evaluable: 1 });
    expect(beside.json.calls[1]).toMatchObject({ status: 'differed', candidate: { decision: 'allow', rule: 'refund-auto' } });

    const none = await post('/v1/simulations', { document: REFUNDS, calls: [] });
    expect(none.json.counts).toEqual({ calls: 0, agreed: 0, differed: 0, not_evaluable: 0 });
  });

  it('answers 4xx for bad pasted calls', async () => {
    const ok = { tool: REFUND_TOOL, arguments: { amount: '1' } };
    const cases: [unknown, number, string][] = [
      [[{ ...ok, extra: true }], 400, 'INVALID_BODY'],
      [[{ tool: REFUND_TOOL }], 400, 'INVALID_BODY'],
      [[{ tool: REFUND_TOOL, arguments: [1] }], 400, 'INVALID_BODY'],
      [[{ tool: REFUND_TOOL, arguments: 'x' }], 400, 'INVALID_BODY'],
      [[{ tool: 'issue_refund', arguments: {} }], 400, 'INVALID_BODY'],
      [[{ tool: { ...REFUND_TOOL, colour: 'red' }, arguments: {} }], 400, 'INVALID_BODY'],
      [[{ tool: { name: 'x' }, arguments: {} }], 400, 'INVALID_BODY'],
      [[{ tool: { ...REFUND_TOOL, amount: { pointer: '/amount' } }, arguments: {} }], 400, 'INVALID_BODY'],
      [[{ ...ok, expect: { decision: 'maybe' } }], 400, 'INVALID_BODY'],
      [[{ ...ok, expect: { decision: 'allow', why: 1 } }], 400, 'INVALID_BODY'],
      [[{ ...ok, expect: {} }], 400, 'INVALID_BODY'],
      [['x'], 400, 'INVALID_BODY'],
      [Array.from({ length: 1001 }, () => ok), 400, 'INVALID_BODY'],
      [[{ tool: { name: 'bad name!', action: 'refund.issue' }, arguments: {} }], 422, 'INVALID_TOOL'],
      [[ok, { tool: { name: 'pay', action: 'Not An Action' }, arguments: {} }], 422, 'INVALID_TOOL'],
      [[{ tool: { ...REFUND_TOOL, amount: { pointer: 'amount', currency: 'USD' } }, arguments: {} }], 422, 'INVALID_TOOL'],
    ];
    for (const [calls, status, code] of cases) {
      const r = await post('/v1/simulations', { document: REFUNDS, calls });
      expect([r.status, r.json?.error?.code], JSON.stringify(calls).slice(0, 120)).toEqual([status, code]);
      expect(typeof r.json.error.message).toBe('string');
    }
    const bad = await post('/v1/simulations', {
      document: REFUNDS,
      calls: [ok, { tool: { name: 'pay', action: 'Not An Action' }, arguments: {} }],
    });
    expect(bad.json.error.details.problems[0].path).toBe('/calls/1/tool/action');
  });

  it('answers 4xx for bad bodies, unknown documents and invalid policies, changing nothing', async () => {
    const cases: [unknown, number, string][] = [
      [{ document: { id: 'policies/none.policy.json' }, calls: { examples: SUITE } }, 404, 'NOT_FOUND'],
      [{ document: { id: REFUNDS_ID, sequence: 99 }, calls: { examples: SUITE } }, 404, 'NOT_FOUND'],
      [{ document: { id: 'catalogue.yaml' }, calls: { examples: SUITE } }, 400, 'NOT_A_POLICY'],
      [{ document: { schema: 'tollgate/policy@1', default: 'allow', rules: [] }, calls: { examples: SUITE } }, 422, 'INVALID_POLICY'],
      [{ document: REFUNDS, calls: { examples: { tools: [], examples: [{ name: 'x' }] } } }, 422, 'INVALID_EXAMPLES'],
      [{ document: REFUNDS, calls: { recorded: { since: 'yesterday' } } }, 400, 'INVALID_BODY'],
      [{ document: REFUNDS, calls: { examples: SUITE, recorded: {} } }, 400, 'INVALID_BODY'],
      [{ document: REFUNDS }, 400, 'INVALID_BODY'],
      [{ document: REFUNDS, calls: { examples: SUITE }, extra: 1 }, 400, 'INVALID_BODY'],
      [{ document: { id: REFUNDS_ID, sequence: -1 }, calls: { examples: SUITE } }, 400, 'INVALID_BODY'],
    ];
    const before = await server.ctx.store.history(REFUNDS_ID);
    for (const [body, status, code] of cases) {
      const r = await post('/v1/simulations', body);
      expect([r.status, r.json?.error?.code], JSON.stringify(body).slice(0, 120)).toEqual([status, code]);
    }
    const agent = await post('/v1/simulations', { document: REFUNDS, calls: { examples: SUITE } }, 'agent');
    expect(agent.status).toBe(403);
    expect(await server.ctx.store.history(REFUNDS_ID)).toEqual(before);
  });
});

describe('trials', () => {
  it('starts a trial of a stored candidate (owner or admin), reports it to members, and stops it', async () => {
    const saved = await server.ctx.store.save({
      id: REFUNDS_ID,
      text: `${JSON.stringify(laxerRefunds(), null, 2)}\n`,
      author: { kind: 'person', label: 'test' },
      reason: 'a laxer candidate',
      activate: false,
    });
    const id = encodeURIComponent(REFUNDS_ID);
    const body = { document: REFUNDS_ID, sequence: saved.sequence, sample_rate: 0.5 };

    for (const who of ['developer', 'viewer', 'approver'] as const) {
      const refused = await post('/v1/trials', body, who);
      expect(refused.status).toBe(403);
      expect(refused.json.error.code).toBe('ROLE_REQUIRED');
    }
    // No trial is an empty state: 204 with no body, not an error.
    const none = await server.call('GET', `/v1/trials/${id}`, { key: server.key('viewer') });
    expect(none.status).toBe(204);
    expect(none.text).toBe('');

    const started = await post('/v1/trials', body, 'admin');
    expect(started.status).toBe(201);
    expect(started.json).toMatchObject({ document: REFUNDS_ID, candidate: saved.sequence, sample_rate: 0.5, running: true, calls: 0 });

    const tool = (await import('@tollgate/engine')).compileTool(REFUND_TOOL);
    for (let i = 0; i < 4; i++) await server.ctx.trials.decide(REFUNDS_ID, tool, { amount: '150' }, `c${i}`);
    const report = await server.call('GET', `/v1/trials/${id}`, { key: server.key('viewer') });
    expect(report.status).toBe(200);
    expect(report.json).toMatchObject({ calls: 4, sampled: 2, agreed: 0, differed: 2, running: true });

    expect((await post(`/v1/trials/${id}/stop`, {}, 'developer')).status).toBe(403);
    const stopped = await post(`/v1/trials/${id}/stop`, undefined, 'owner');
    expect(stopped.status).toBe(200);
    expect(stopped.json.running).toBe(false);
  });

  it('answers 4xx for a version that cannot be a candidate and for bad bodies', async () => {
    const running = await post('/v1/trials', { document: REFUNDS_ID, sequence: 1, sample_rate: 0.1 }, 'owner');
    // A store refusal answers as on every route (route-kit.ts storeError): invalid_save is 400 INVALID_SAVE.
    expect([running.status, running.json.error.code]).toEqual([400, 'INVALID_SAVE']);
    const missing = await post('/v1/trials', { document: REFUNDS_ID, sequence: 99, sample_rate: 0.1 }, 'owner');
    expect(missing.status).toBe(404);
    const rate = await post('/v1/trials', { document: REFUNDS_ID, sequence: 2, sample_rate: 2 }, 'owner');
    expect(rate.status).toBe(400);
    const none = await post(`/v1/trials/${encodeURIComponent('policies/none.policy.json')}/stop`, undefined, 'owner');
    expect(none.status).toBe(404);
    expect(none.json.error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'trial' } });
  });
});
