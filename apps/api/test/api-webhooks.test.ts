// Webhooks over real HTTP (docs/webhooks.md): subscriptions managed by owners and admins, each approval transition
// delivered to a real receiver on loopback and verified with standardwebhooks, retries after failures and timeouts
// each recorded, filters, and arguments sent only when asked for. The test allows http and loopback explicitly.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryWorker } from '../src/server/webhooks/delivery-worker.ts';
import { fanOutTransitions } from '../src/server/webhooks/outbox.ts';
import { hideTable, type LooseJson, startServer, type TestServer } from './server-harness.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

let s: TestServer;
let receiver: WebhookReceiver;
let worker: DeliveryWorker;
let clock = new Date('2026-03-01T09:00:00.000Z');
const ALLOW = { allowHttp: true, allowPrivate: true };

beforeAll(async () => {
  process.env.TOLLGATE_WEBHOOKS_ALLOW_HTTP = '1';
  process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE = '1';
  s = await startServer({ now: () => clock });
  receiver = await new WebhookReceiver().start();
  // A receiver that hangs is timed out after 2 s: long enough that one on loopback, answering late on a loaded
  // machine, is not taken for one.
  worker = new DeliveryWorker(s.ctx, { node: 'test-node', policy: ALLOW, timeoutMs: 2_000, jitter: () => 0.5 });
});
afterAll(async () => {
  delete process.env.TOLLGATE_WEBHOOKS_ALLOW_HTTP;
  delete process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE;
  await receiver.stop();
  await s.stop();
});

const REFUND = { amount: '500', order: 'A-7-SECRET-ORDER' };
const later = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

async function subscribe(path: string, body: Record<string, unknown> = {}): Promise<LooseJson> {
  const r = await s.call('POST', '/v1/webhooks', {
    key: s.key('owner'),
    body: {
      url: `${receiver.url}${path}`,
      events: ['approval.pending', 'approval.approved', 'approval.claimed', 'approval.expired'],
      ...body,
    },
  });
  expect(r.status).toBe(201);
  return r.json;
}

async function held(args: Record<string, unknown> = REFUND): Promise<string> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: args } });
  expect(r.json.decision).toBe('require_approval');
  return r.json.approval.id as string;
}

/** Runs the worker until `path` has received `count` requests (the outbox is written just after the transition). */
async function deliveredTo(path: string, count: number): Promise<void> {
  for (let i = 0; i < 50 && receiver.at(path).length < count; i++) {
    await worker.tick();
    if (receiver.at(path).length < count) await new Promise((r) => setTimeout(r, 20));
  }
  expect(receiver.at(path).length).toBe(count);
}

function verified(secret: string, path: string, index: number): LooseJson {
  const got = receiver.at(path)[index];
  if (!got) throw new Error(`nothing at ${path}[${index}]`);
  const headers = {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(got.body, headers);
}

describe('webhook subscriptions', () => {
  it('are made by owners and admins with a secret shown once; others and models are refused', async () => {
    const made = await subscribe('/made');
    expect(made.secret).toMatch(/^whsec_/);
    expect(Buffer.from(made.secret.slice(6), 'base64')).toHaveLength(32);
    expect(made).toMatchObject({ format: 'standard', include_arguments: false, filters: {} });
    const read = await s.call('GET', `/v1/webhooks/${made.id}`, { key: s.key('admin') });
    expect(read.status).toBe(200);
    expect(read.json.secret).toBeUndefined();
    const list = await s.call('GET', '/v1/webhooks', { key: s.key('admin') });
    expect(list.json.webhooks.map((w: { id: string }) => w.id)).toContain(made.id);
    expect(JSON.stringify(list.json)).not.toContain(made.secret);
    for (const who of ['viewer', 'developer', 'approver'] as const) {
      const r = await s.call('GET', '/v1/webhooks', { key: s.key(who) });
      expect([r.status, r.json.error.code]).toEqual([403, 'ROLE_REQUIRED']);
    }
    const owner = s.keys.members.find((m) => m.role === 'owner');
    const modelKey = await s.ctx.state.createKey({ member: owner?.id as string }, ['model']);
    const byModel = await s.call('POST', '/v1/webhooks', {
      key: modelKey,
      body: { url: `${receiver.url}/m`, events: ['approval.pending'] },
    });
    expect([byModel.status, byModel.json.error.code]).toEqual([403, 'PERSON_REQUIRED']);

    const rotated = await s.call('POST', `/v1/webhooks/${made.id}/rotate-secret`, { key: s.key('owner') });
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(made.secret);
    expect((await s.call('DELETE', `/v1/webhooks/${made.id}`, { key: s.key('owner') })).status).toBe(200);
    expect((await s.call('GET', `/v1/webhooks/${made.id}`, { key: s.key('owner') })).status).toBe(404);
    expect((await s.call('DELETE', `/v1/webhooks/${made.id}`, { key: s.key('owner') })).status).toBe(404);
  });

  it('refuses a URL to loopback or over http unless the operator allows it (400 WEBHOOK_URL_REFUSED)', async () => {
    delete process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE;
    try {
      for (const url of [`${receiver.url}/x`, 'https://127.0.0.1/x', 'https://169.254.169.254/latest', 'https://localhost/x']) {
        const r = await s.call('POST', '/v1/webhooks', { key: s.key('owner'), body: { url, events: ['approval.pending'] } });
        expect([r.status, r.json.error.code]).toEqual([400, 'WEBHOOK_URL_REFUSED']);
      }
    } finally {
      process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE = '1';
    }
    const bad = await s.call('POST', '/v1/webhooks', {
      key: s.key('owner'),
      body: { url: `${receiver.url}/x`, events: ['approval.nope'] },
    });
    expect(bad.status).toBe(400);
  });
});

describe('deliveries', () => {
  it('tells a held call, its approval and its claim, each signed, without the arguments', async () => {
    const sub = await subscribe('/flow');
    const id = await held();
    await deliveredTo('/flow', 1);
    const pending = verified(sub.secret, '/flow', 0);
    expect(pending).toMatchObject({
      type: 'approval.pending',
      data: { approval_id: id, agent: 'support-bot', tool: 'issue_refund', rule: 'refund-approval', status: 'pending' },
    });
    expect(pending.data.policy_document).toBe('policies/refunds.policy.json');
    expect(pending.data.approvers.length).toBeGreaterThan(0);
    expect(pending.data.approvers[0]).toEqual({ id: expect.any(String), name: expect.any(String) });
    expect(pending.arguments).toBeUndefined();
    expect(receiver.at('/flow')[0]?.body).not.toContain('A-7-SECRET-ORDER');

    expect((await s.call('POST', `/v1/approvals/${id}/approve`, { key: s.key('approver'), body: {} })).status).toBe(200);
    await deliveredTo('/flow', 2);
    expect(verified(sub.secret, '/flow', 1)).toMatchObject({ type: 'approval.approved', data: { approval_id: id, status: 'approved' } });

    const claim = await s.call('POST', `/v1/approvals/${id}/claim`, { key: s.key('agent'), body: { arguments: REFUND } });
    expect(claim.status).toBe(200);
    await deliveredTo('/flow', 3);
    expect(verified(sub.secret, '/flow', 2)).toMatchObject({ type: 'approval.claimed', data: { approval_id: id } });
    for (const got of receiver.at('/flow')) expect(got.body).not.toContain('A-7-SECRET-ORDER');
    // Every delivery has its own id, kept on its attempts.
    const deliveries = await s.call('GET', `/v1/webhooks/${sub.id}/deliveries`, { key: s.key('owner') });
    expect(deliveries.json.deliveries).toHaveLength(3);
    expect(deliveries.json.deliveries.every((d: LooseJson) => d.outcome === 'delivered' && d.http_status === 200)).toBe(true);
    await s.call('DELETE', `/v1/webhooks/${sub.id}`, { key: s.key('owner') });
  });

  it('tells a transition whose fan-out failed right after its commit, once a fan-out runs again', async () => {
    const sub = await subscribe('/late', { events: ['approval.pending'] });
    const restore = await hideTable(s, 'webhook_subscriptions');
    let id: string;
    try {
      id = await held();
      // The transition committed with the held call; turning it into outbox rows fails while the table is away.
      await expect(fanOutTransitions(s.ctx)).rejects.toThrow();
      expect((await s.ctx.state.webhooks.transitions(100)).map((t) => t.event_key)).toContain(`${id}:pending`);
    } finally {
      await restore();
    }
    await deliveredTo('/late', 1);
    expect(verified(sub.secret, '/late', 0)).toMatchObject({ type: 'approval.pending', data: { approval_id: id } });
    expect(await s.ctx.state.webhooks.transitions(100)).toEqual([]);
    await s.call('DELETE', `/v1/webhooks/${sub.id}`, { key: s.key('owner') });
  });

  it('carries the arguments as written only when include_arguments is true', async () => {
    const sub = await subscribe('/args', { include_arguments: true, events: ['approval.pending'] });
    await held({ amount: '500', order: 'B-9', note: 1.1 });
    await deliveredTo('/args', 1);
    const body = verified(sub.secret, '/args', 0);
    expect(body.arguments).toMatchObject({ amount: '500', order: 'B-9' });
    await s.call('DELETE', `/v1/webhooks/${sub.id}`, { key: s.key('owner') });
  });

  it('retries a failing receiver with backoff: 500, 500, then 200 is three attempts and one success', async () => {
    const sub = await subscribe('/flaky', { events: ['approval.pending'] });
    receiver.script('/flaky', 500, 500, 200);
    await held();
    await deliveredTo('/flaky', 1);
    // Not yet due: the first retry waits about 5 s.
    await worker.tick();
    expect(receiver.at('/flaky')).toHaveLength(1);
    later(6_000);
    await deliveredTo('/flaky', 2);
    later(20_000);
    await worker.tick();
    expect(receiver.at('/flaky')).toHaveLength(2);
    later(20_000);
    await deliveredTo('/flaky', 3);
    const ids = new Set(receiver.at('/flaky').map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    for (let i = 0; i < 3; i++) verified(sub.secret, '/flaky', i);
    const { json } = await s.call('GET', `/v1/webhooks/${sub.id}/deliveries`, { key: s.key('admin') });
    expect(json.deliveries.map((d: LooseJson) => [d.attempt, d.outcome, d.http_status])).toEqual([
      [3, 'delivered', 200],
      [2, 'failed', 500],
      [1, 'failed', 500],
    ]);
    expect(json.deliveries[1].excerpt).toBe('no: 500');
    expect(json.deliveries.every((d: LooseJson) => d.status === 'delivered')).toBe(true);

    // Sent again on request: a fourth attempt of the same delivery.
    const again = await s.call('POST', `/v1/webhooks/${sub.id}/deliveries/${json.deliveries[0].id}/redeliver`, { key: s.key('owner') });
    expect(again.status).toBe(202);
    await deliveredTo('/flaky', 4);
    const missing = await s.call('POST', `/v1/webhooks/${sub.id}/deliveries/msg_nope/redeliver`, { key: s.key('owner') });
    expect(missing.status).toBe(404);
    await s.call('DELETE', `/v1/webhooks/${sub.id}`, { key: s.key('owner') });
  });

  it('records a receiver that never answers as a timeout, then retries it', async () => {
    const sub = await subscribe('/hang', { events: ['approval.pending'] });
    receiver.script('/hang', 'hang', 200);
    await held();
    await deliveredTo('/hang', 1);
    let { json } = await s.call('GET', `/v1/webhooks/${sub.id}/deliveries`, { key: s.key('owner') });
    expect(json.deliveries[0]).toMatchObject({ outcome: 'failed', error: 'timeout', http_status: null, status: 'pending' });
    later(6_000);
    await deliveredTo('/hang', 2);
    ({ json } = await s.call('GET', `/v1/webhooks/${sub.id}/deliveries`, { key: s.key('owner') }));
    expect(json.deliveries.map((d: LooseJson) => d.outcome)).toEqual(['delivered', 'failed']);
    await s.call('DELETE', `/v1/webhooks/${sub.id}`, { key: s.key('owner') });
  });

  it("sends a filtered subscription only its agents' events", async () => {
    const mine = await subscribe('/mine', { events: ['approval.pending'], filters: { agents: ['support-bot'] } });
    const other = await subscribe('/other', { events: ['approval.pending'], filters: { agents: ['another-bot'] } });
    const tool = await subscribe('/tool', { events: ['approval.pending'], filters: { tools: ['some_other_tool'] } });
    await held();
    await deliveredTo('/mine', 1);
    await worker.tick();
    expect(receiver.at('/other')).toHaveLength(0);
    expect(receiver.at('/tool')).toHaveLength(0);
    for (const sub of [mine, other, tool]) await s.call('DELETE', `/v1/webhooks/${sub.id}`, { key: s.key('owner') });
  });

  it('tells each request that expired undecided, once', async () => {
    const sub = await subscribe('/expiry', { events: ['approval.expired'] });
    const id = await held();
    // Every request still pending from the tests before expires too: each is told once.
    const pending = await s.call('GET', '/v1/approvals?status=pending', { key: s.key('owner') });
    const expected = pending.json.approvals.length as number;
    later(4 * 3600 * 1000 + 1000);
    await deliveredTo('/expiry', expected);
    await worker.tick();
    expect(receiver.at('/expiry')).toHaveLength(expected);
    const told = receiver.at('/expiry').map((_, i) => verified(sub.secret, '/expiry', i));
    expect(new Set(told.map((b) => b.data.approval_id)).size).toBe(expected);
    expect(told.find((b) => b.data.approval_id === id)).toMatchObject({ type: 'approval.expired', data: { status: 'expired' } });
    await s.call('DELETE', `/v1/webhooks/${sub.id}`, { key: s.key('owner') });
  });

  it('tells every deny to a subscription that asks for them, once each, filtered, without the arguments', async () => {
    const before = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'issue_refund', arguments: { amount: '9000', order: 'D-0' } },
    });
    expect(before.json.decision).toBe('deny');
    later(1000);
    const sub = await subscribe('/denies', { events: ['decision.denied'] });
    const elsewhere = await subscribe('/denies-other', { events: ['decision.denied'], filters: { agents: ['another-bot'] } });
    const denied: string[] = [];
    for (const amount of ['5000', '7000.5']) {
      const r = await s.call('POST', '/v1/agents/support-bot/calls', {
        key: s.key('agent'),
        body: { tool: 'issue_refund', arguments: { amount, order: 'D-SECRET' } },
      });
      expect(r.json.decision).toBe('deny');
      denied.push(r.json.call_id);
    }
    // A held call is no deny.
    await held();
    await deliveredTo('/denies', 2);
    const told = [0, 1].map((i) => verified(sub.secret, '/denies', i));
    expect(told.map((b) => b.data.call_id).sort()).toEqual([...denied].sort());
    expect(told[0]).toMatchObject({ type: 'decision.denied', data: { agent: 'support-bot', tool: 'issue_refund' } });
    expect(told[0]?.data.rule).toEqual(expect.any(String));
    expect(Object.keys(told[0]?.data.versions ?? {})).toContain('policies/refunds.policy.json');
    for (const got of receiver.at('/denies')) expect(got.body).not.toContain('D-SECRET');
    // Read again at later ticks, as the cursor settles past them: told once still.
    await worker.tick();
    later(60_000);
    await worker.tick();
    await worker.tick();
    expect(receiver.at('/denies')).toHaveLength(2);
    expect(receiver.at('/denies-other')).toHaveLength(0);
    for (const x of [sub, elsewhere]) await s.call('DELETE', `/v1/webhooks/${x.id}`, { key: s.key('owner') });
  });

  it('posts Slack-shaped bodies for format slack', async () => {
    const sub = await subscribe('/slack', { events: ['approval.pending'], format: 'slack' });
    await held();
    await deliveredTo('/slack', 1);
    const body = JSON.parse(receiver.at('/slack')[0]?.body as string);
    expect(body.text).toContain('support-bot');
    expect(body.text).toContain('issue_refund');
    expect(Array.isArray(body.blocks)).toBe(true);
    expect(JSON.stringify(body.blocks)).toContain('refund-approval');
    await s.call('DELETE', `/v1/webhooks/${sub.id}`, { key: s.key('owner') });
  });
});
