// Recorded decisions over real HTTP: calls sent with the agent key through the gate, then read back newest
// first by members, filtered by agent and time, with the arguments only for owners and admins on request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetArguments, startServer, type TestServer } from './server-harness.ts';

let server: TestServer;
const ids: string[] = [];
let between = '';

beforeAll(async () => {
  server = await startServer();
  const send = async (tool: string, args: Record<string, unknown>, session?: string) => {
    const r = await server.call('POST', '/v1/agents/support-bot/calls', {
      key: server.key('agent'),
      body: { tool, arguments: args, ...(session ? { session } : {}) },
    });
    expect(r.status, r.text).toBe(200);
    ids.push(r.json.call_id);
    return r.json;
  };
  await send('issue_refund', { amount: '50' }, 's-1');
  await send('issue_refund', { amount: '500' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  between = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 20));
  await send('issue_refund', { amount: '20' }, 's-2');
});
afterAll(async () => {
  await server.stop();
});

function get(path: string, who: Parameters<TestServer['key']>[0] = 'viewer') {
  return server.call('GET', path, { key: server.key(who) });
}

describe('GET /v1/decisions', () => {
  it('lists the recorded decisions newest first, without the arguments, to any member', async () => {
    const r = await get('/v1/decisions');
    expect(r.status).toBe(200);
    expect(r.json.decisions.map((d: { call_id: string }) => d.call_id)).toEqual([...ids].reverse());
    const [newest, , oldest] = r.json.decisions;
    expect(oldest).toMatchObject({
      call_id: ids[0],
      agent: 'support-bot',
      tool: 'issue_refund',
      action: 'refund.issue',
      currency: 'USD',
      decision: 'allow',
      arguments_kept: true,
      session: 's-1',
      via: 'http',
    });
    expect(oldest.amount).toMatch(/^50(\.0+)?$/);
    expect(oldest.arguments_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(oldest.versions).length).toBeGreaterThan(0);
    expect(Object.values(oldest.versions).every((v) => typeof v === 'number')).toBe(true);
    expect(oldest).not.toHaveProperty('arguments');
    expect(newest.session).toBe('s-2');
    expect(r.json.decisions[1]).toMatchObject({ decision: 'require_approval', session: null });
    expect(Object.keys(oldest).sort()).toEqual(
      [
        'call_id',
        'agent',
        'tool',
        'action',
        'amount',
        'currency',
        'decision',
        'rule',
        'code',
        'versions',
        'arguments_digest',
        'arguments_kept',
        'session',
        'created_at',
        'shadow_differences',
        'via',
      ].sort(),
    );
  });

  it('filters by agent, since, until and limit', async () => {
    expect((await get('/v1/decisions?agent=nobody')).json.decisions).toEqual([]);
    expect((await get('/v1/decisions?agent=support-bot')).json.decisions).toHaveLength(3);
    const since = await get(`/v1/decisions?since=${encodeURIComponent(between)}`);
    expect(since.json.decisions.map((d: { call_id: string }) => d.call_id)).toEqual([ids[2]]);
    const until = await get(`/v1/decisions?until=${encodeURIComponent(between)}`);
    expect(until.json.decisions.map((d: { call_id: string }) => d.call_id)).toEqual([ids[1], ids[0]]);
    const limited = await get('/v1/decisions?limit=1');
    expect(limited.json.decisions.map((d: { call_id: string }) => d.call_id)).toEqual([ids[2]]);
    expect((await get('/v1/decisions?limit=500')).json.decisions).toHaveLength(3);
  });

  it('shows the arguments with with_arguments=true to owners and admins only', async () => {
    for (const who of ['owner', 'admin'] as const) {
      const r = await get('/v1/decisions?with_arguments=true', who);
      expect(r.status).toBe(200);
      expect(r.json.decisions[2].arguments).toEqual({ amount: '50' });
    }
    for (const who of ['viewer', 'developer', 'approver'] as const) {
      const r = await get('/v1/decisions?with_arguments=true', who);
      expect([r.status, r.json.error.code]).toEqual([403, 'ROLE_REQUIRED']);
      const one = await get(`/v1/decisions/${encodeURIComponent(ids[0] as string)}?with_arguments=true`, who);
      expect([one.status, one.json.error.code]).toEqual([403, 'ROLE_REQUIRED']);
    }
    const without = await get('/v1/decisions?with_arguments=false', 'owner');
    expect(without.json.decisions[0]).not.toHaveProperty('arguments');
  });

  it('reports forgotten arguments as not kept, their digest staying', async () => {
    await forgetArguments(server, ids[1] as string);
    const r = await get(`/v1/decisions/${encodeURIComponent(ids[1] as string)}?with_arguments=true`, 'admin');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ call_id: ids[1], arguments_kept: false, arguments: null });
    expect(r.json.arguments_digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('answers 400 INVALID_QUERY for bad queries', async () => {
    for (const q of [
      'limit=0',
      'limit=501',
      'limit=abc',
      'limit=1.5',
      'since=yesterday',
      'until=2026-13-01T00:00:00Z',
      'since=2026-01-01',
      'with_arguments=yes',
      'agent=',
      'colour=red',
      `since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z`,
    ]) {
      const r = await get(`/v1/decisions?${q}`);
      expect([r.status, r.json?.error?.code], q).toEqual([400, 'INVALID_QUERY']);
      expect(typeof r.json.error.message).toBe('string');
    }
  });

  it('refuses a missing or wrong key and the agent key', async () => {
    const none = await server.call('GET', '/v1/decisions');
    expect([none.status, none.json.error.code]).toEqual([401, 'MISSING_KEY']);
    const wrong = await server.call('GET', '/v1/decisions', { key: 'nope' });
    expect([wrong.status, wrong.json.error.code]).toEqual([401, 'INVALID_KEY']);
    const agent = await get('/v1/decisions', 'agent');
    expect([agent.status, agent.json.error.code]).toEqual([403, 'MEMBER_REQUIRED']);
    const agentOne = await get(`/v1/decisions/${encodeURIComponent(ids[0] as string)}`, 'agent');
    expect(agentOne.status).toBe(403);
  });
});

describe('GET /v1/decisions/{call_id}', () => {
  it('answers one decision, and 404 for an unknown call id', async () => {
    const r = await get(`/v1/decisions/${encodeURIComponent(ids[0] as string)}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ call_id: ids[0], decision: 'allow', arguments_kept: true });
    expect(r.json).not.toHaveProperty('arguments');
    const missing = await get(`/v1/decisions/${encodeURIComponent('no/such call')}`);
    expect([missing.status, missing.json.error.code]).toEqual([404, 'NOT_FOUND']);
    const bad = await get(`/v1/decisions/${encodeURIComponent(ids[0] as string)}?x=1`);
    expect([bad.status, bad.json.error.code]).toEqual([400, 'INVALID_QUERY']);
  });
});
