// Two nodes delivering one PostgreSQL database's webhooks (docs/webhooks.md, "Several nodes"): two contexts on one
// schema, each with its delivery worker. A row leased by a node that then stops is taken by the other only once the
// lease lapses; racing workers deliver each attempt exactly once, each recorded by the node that made it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { DeliveryWorker } from '../src/server/webhooks/delivery-worker.ts';
import { migratedSchema, startPostgresServer } from './postgres-harness.ts';
import type { LooseJson, TestServer } from './server-harness.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

const ALLOW = { allowHttp: true, allowPrivate: true };

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(
  `webhooks on two nodes${POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : ''}`,
  () => {
    let schema: TestSchema;
    let one: TestServer;
    let two: TestServer;
    let receiver: WebhookReceiver;
    let clock = new Date('2026-03-01T09:00:00.000Z');
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-webhooks-nodes-'));

    beforeAll(async () => {
      process.env.TOLLGATE_WEBHOOKS_ALLOW_HTTP = '1';
      process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE = '1';
      schema = await migratedSchema('webhooknodes');
      one = await startPostgresServer(schema.url, { dataDir, now: () => clock });
      two = await startPostgresServer(schema.url, { dataDir, now: () => clock });
      receiver = await new WebhookReceiver().start();
    });
    afterAll(async () => {
      delete process.env.TOLLGATE_WEBHOOKS_ALLOW_HTTP;
      delete process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE;
      await receiver.stop();
      await two?.stop();
      await schema?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    async function subscribe(on: TestServer, path: string): Promise<LooseJson> {
      const r = await on.call('POST', '/v1/webhooks', {
        key: on.key('owner'),
        body: { url: `${receiver.url}${path}`, events: ['approval.pending'] },
      });
      expect(r.status).toBe(201);
      return r.json;
    }
    async function hold(on: TestServer, order: string): Promise<void> {
      const r = await on.call('POST', '/v1/agents/support-bot/calls', {
        key: on.key('agent'),
        body: { tool: 'issue_refund', arguments: { amount: '500', order } },
      });
      expect(r.json.decision).toBe('require_approval');
    }

    it('gives a row leased by a node that stopped to the other node once the lease lapses', async () => {
      const sub = await subscribe(one, '/lapse');
      await hold(one, 'L-1');
      // Node one leases the row, then stops without finishing it.
      let leased: { id: string }[] = [];
      for (let i = 0; i < 50 && leased.length === 0; i++) {
        leased = await one.ctx.state.webhooks.lease('node-one', clock, 30_000, 10);
        if (leased.length === 0) await new Promise((r) => setTimeout(r, 20));
      }
      expect(leased).toHaveLength(1);
      await one.stop();

      const worker = new DeliveryWorker(two.ctx, { node: 'node-two', policy: ALLOW, timeoutMs: 2000 });
      expect(await worker.tick()).toBe(0);
      clock = new Date(clock.getTime() + 29_000);
      expect(await worker.tick()).toBe(0);
      clock = new Date(clock.getTime() + 2_000);
      expect(await worker.tick()).toBe(1);
      expect(receiver.at('/lapse')).toHaveLength(1);
      expect(receiver.at('/lapse')[0]?.headers['webhook-id']).toBe(leased[0]?.id);
      const { json } = await two.call('GET', `/v1/webhooks/${sub.id}/deliveries`, { key: two.key('owner') });
      expect(json.deliveries.map((d: LooseJson) => [d.node, d.attempt, d.outcome])).toEqual([['node-two', 1, 'delivered']]);
      await two.call('DELETE', `/v1/webhooks/${sub.id}`, { key: two.key('owner') });
    });

    it('delivers each attempt by exactly one of two racing nodes', async () => {
      const three = await startPostgresServer(schema.url, { dataDir, now: () => clock });
      try {
        // Node one stopped in the test before: nodes two and three race.
        const sub = await subscribe(two, '/race');
        receiver.script('/race', ...Array.from({ length: 6 }, () => 500 as const));
        for (let i = 0; i < 12; i++) await hold(i % 2 === 0 ? two : three, `R-${i}`);
        const a = new DeliveryWorker(two.ctx, { node: 'node-a', policy: ALLOW, concurrency: 3, jitter: () => 0 });
        const b = new DeliveryWorker(three.ctx, { node: 'node-b', policy: ALLOW, concurrency: 3, jitter: () => 0 });
        for (let round = 0; round < 40; round++) {
          await Promise.all([a.tick(), b.tick()]);
          const ids = new Set(receiver.at('/race').map((r) => r.headers['webhook-id']));
          if (ids.size === 12 && receiver.at('/race').length === 18) break;
          clock = new Date(clock.getTime() + 7_000);
          await new Promise((r) => setTimeout(r, 20));
        }
        const got = receiver.at('/race');
        // Twelve deliveries, six of them failed once first: eighteen attempts, none sent twice.
        expect(got).toHaveLength(18);
        const perId = new Map<string, number>();
        for (const r of got) perId.set(String(r.headers['webhook-id']), (perId.get(String(r.headers['webhook-id'])) ?? 0) + 1);
        expect(perId.size).toBe(12);
        expect([...perId.values()].sort()).toEqual([...Array(6).fill(1), ...Array(6).fill(2)]);
        const { json } = await two.call('GET', `/v1/webhooks/${sub.id}/deliveries`, { key: two.key('owner') });
        expect(json.deliveries).toHaveLength(18);
        expect(json.deliveries.filter((d: LooseJson) => d.outcome === 'delivered')).toHaveLength(12);
        const byAttempt = new Set(json.deliveries.map((d: LooseJson) => `${d.id}#${d.attempt}`));
        expect(byAttempt.size).toBe(18);
      } finally {
        await three.stop();
      }
    });
  },
);
