// The state contract (state-store.ts), webhooks (state/webhooks/): subscriptions, the outbox written once per
// subscription and event, leases that are one instance's until they lapse, an attempt recorded only by the instance
// holding the lease, redelivery and removal, on SQLite and on PostgreSQL (state-contract-backends.ts), two instances
// on one database standing for two nodes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxRow, SubscriptionRow } from '../src/server/state/webhooks/model.ts';
import { sealWebhookSecret } from '../src/server/state/webhooks/sealed-secret.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';
import { BACKENDS, type StateFixture, titleOf } from './state-contract-backends.ts';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const KEYS = testCustodialKeys();
const ROTATED = sealWebhookSecret('whsec_BBBB', KEYS, 'wh_contract');

const SUB: SubscriptionRow = {
  id: 'wh_contract',
  url: 'https://93.184.216.34/hook',
  events: '["approval.pending"]',
  filters: '{}',
  include_arguments: 0,
  format: 'standard',
  secret: sealWebhookSecret('whsec_AAAA', KEYS, 'wh_contract'),
  created_at: at(0).toISOString(),
  created_by: 'ana',
  removed_at: null,
};

function outbox(id: string, eventKey = `${id}:pending`, due = at(0)): OutboxRow {
  return {
    id,
    subscription_id: SUB.id,
    event_key: eventKey,
    type: 'approval.pending',
    body: '{"type":"approval.pending"}',
    status: 'pending',
    attempts: 0,
    next_at: due.toISOString(),
    leased_until: null,
    leased_by: null,
    created_at: at(0).toISOString(),
  };
}

const attempt = (row: OutboxRow, node: string, when: Date, outcome: 'delivered' | 'failed' = 'delivered') => ({
  outbox_id: row.id,
  subscription_id: row.subscription_id,
  attempt: row.attempts + 1,
  node,
  outcome,
  http_status: outcome === 'delivered' ? 200 : 500,
  latency_ms: 12,
  error: outcome === 'delivered' ? null : 'HTTP 500',
  excerpt: 'ok',
  at: when.toISOString(),
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(titleOf(backend), () => {
    let f: StateFixture;
    beforeEach(async () => {
      f = await backend.open();
      await f.a.webhooks.create(SUB);
    });
    afterEach(async () => {
      await f?.close();
    });

    it('keeps subscriptions, rotates a secret and removes one, its pending deliveries given up', async () => {
      expect(await f.b.webhooks.list()).toEqual([SUB]);
      expect(await f.b.webhooks.rotateSecret(SUB.id, ROTATED)).toBe(true);
      expect((await f.a.webhooks.find(SUB.id))?.secret).toBe(ROTATED);
      await f.a.webhooks.enqueue([outbox('msg_r')]);
      expect(await f.b.webhooks.remove(SUB.id, at(1).toISOString())).toBe(true);
      expect(await f.b.webhooks.remove(SUB.id, at(1).toISOString())).toBe(false);
      expect(await f.a.webhooks.find(SUB.id)).toBeUndefined();
      expect(await f.a.webhooks.list()).toEqual([]);
      expect((await f.a.webhooks.findDelivery('msg_r'))?.status).toBe('failed');
      expect(await f.a.webhooks.lease('one', at(2), 30_000, 10)).toEqual([]);
    });

    it('writes no secret in plain: a subscription or a rotation with a plain secret is refused, nothing written', async () => {
      await expect(f.a.webhooks.create({ ...SUB, id: 'wh_plain', secret: 'whsec_CCCC' })).rejects.toThrow(/sealed/);
      await expect(f.a.webhooks.rotateSecret(SUB.id, 'whsec_CCCC')).rejects.toThrow(/sealed/);
      expect(await f.b.webhooks.list()).toEqual([SUB]);
    });

    it('writes an event once per subscription, however often it is enqueued', async () => {
      await f.a.webhooks.enqueue([outbox('msg_1', 'ap-1:pending')]);
      await f.b.webhooks.enqueue([outbox('msg_2', 'ap-1:pending'), outbox('msg_3', 'ap-2:pending')]);
      const leased = await f.a.webhooks.lease('one', at(1), 30_000, 10);
      expect(leased.map((r) => r.id).sort()).toEqual(['msg_1', 'msg_3']);
    });

    it('leases a due row to one instance until the lease lapses, and records an attempt only by its holder', async () => {
      await f.a.webhooks.enqueue([outbox('msg_a'), outbox('msg_later', 'later:pending', at(100))]);
      const [row] = await f.a.webhooks.lease('one', at(1), 30_000, 10);
      expect(row).toMatchObject({ id: 'msg_a', leased_by: 'one' });
      expect(await f.b.webhooks.lease('two', at(2), 30_000, 10)).toEqual([]);
      // The lease lapses: the other instance takes the row; the first no longer records an attempt of it.
      const [taken] = await f.b.webhooks.lease('two', at(32), 30_000, 10);
      expect(taken).toMatchObject({ id: 'msg_a', leased_by: 'two' });
      expect(await f.a.webhooks.finish(attempt(row as OutboxRow, 'one', at(33)), 'delivered', null)).toBe(false);
      expect(await f.b.webhooks.finish(attempt(taken as OutboxRow, 'two', at(33), 'failed'), 'pending', at(40).toISOString())).toBe(true);
      // Not due before its next time; due after, with its count of attempts.
      expect(await f.a.webhooks.lease('one', at(39), 30_000, 10)).toEqual([]);
      const [again] = await f.a.webhooks.lease('one', at(40), 30_000, 10);
      expect(again).toMatchObject({ id: 'msg_a', attempts: 1 });
      expect(await f.a.webhooks.finish(attempt(again as OutboxRow, 'one', at(41)), 'delivered', null)).toBe(true);
      const views = await f.b.webhooks.attempts(SUB.id, 10);
      expect(views.map((v) => [v.node, v.attempt, v.outcome, v.status, v.type])).toEqual([
        ['one', 2, 'delivered', 'delivered', 'approval.pending'],
        ['two', 1, 'failed', 'delivered', 'approval.pending'],
      ]);
      // Sent again on request: due now, its schedule fresh.
      expect(await f.b.webhooks.redeliver(SUB.id, 'msg_a', at(50))).toBe(true);
      expect(await f.b.webhooks.redeliver('wh_other', 'msg_a', at(50))).toBe(false);
      expect(await f.a.webhooks.lease('one', at(50), 30_000, 10)).toEqual([expect.objectContaining({ id: 'msg_a', attempts: 0 })]);
    });
  });
}
