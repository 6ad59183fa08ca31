// Webhook signing secrets at rest (docs/webhooks.md, "The secret at rest"), on a data folder's SQLite and on
// PostgreSQL (a schema of its own): the database holds no plain secret once a subscription is made or its secret
// rotated, while deliveries to a real receiver on loopback verify with the plain secret shown once; a plain secret an
// earlier version stored is sealed at the next start and still signs; a secret sealed with another member key secret
// is never used to sign (the attempt fails with MEMBER_KEY_SECRET_MISMATCH, nothing sent), and a start with it is
// refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE } from '../../../packages/store/test/postgres-fixture.ts';
import { CustodialKeys, SecretMismatchError } from '../src/server/state/members/custodial-keys.ts';
import { SEALED_SECRET_PREFIX } from '../src/server/state/webhooks/model.ts';
import { sealWebhookSecret } from '../src/server/state/webhooks/sealed-secret.ts';
import { DeliveryWorker } from '../src/server/webhooks/delivery-worker.ts';
import { newWebhookSecret } from '../src/server/webhooks/subscriptions.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';
import { migratedSchema, startPostgresServer } from './postgres-harness.ts';
import {
  everyRowText,
  type LooseJson,
  startSqliteServer,
  storedWebhookSecrets,
  type TestServer,
  writeWebhookSecret,
} from './server-harness.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

const ALLOW = { allowHttp: true, allowPrivate: true };
/** A member key secret other than the tests' own (custodial-test-keys.ts). */
const OTHER_KEYS = new CustodialKeys('another-member-key-secret-of-at-least-32-chars');

/** Where a workspace is kept, and how a node starts on it (again and again, as a restart does). */
interface Site {
  start(custodial?: CustodialKeys): Promise<TestServer>;
  close(): Promise<void>;
}

/** Each site's receiver paths start with its key, since one receiver hears both. */
const SITES: { key: string; name: string; skip: string | undefined; open(): Promise<Site> }[] = [
  {
    key: '/sqlite',
    name: 'a data folder (SQLite)',
    skip: undefined,
    async open() {
      const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-whseal-'));
      return {
        start: (custodial) => startSqliteServer({ dataDir, ...(custodial ? { custodial } : {}) }),
        async close() {
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    key: '/postgres',
    name: 'PostgreSQL',
    skip: POSTGRES_UNREACHABLE,
    async open() {
      const schema = await migratedSchema('whseal');
      const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-whseal-pg-'));
      return {
        start: (custodial) => startPostgresServer(schema.url, { dataDir, ...(custodial ? { custodial } : {}) }),
        async close() {
          await schema.drop();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
    },
  },
];

let receiver: WebhookReceiver;
beforeAll(async () => {
  process.env.TOLLGATE_WEBHOOKS_ALLOW_HTTP = '1';
  process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE = '1';
  receiver = await new WebhookReceiver().start();
});
afterAll(async () => {
  delete process.env.TOLLGATE_WEBHOOKS_ALLOW_HTTP;
  delete process.env.TOLLGATE_WEBHOOKS_ALLOW_PRIVATE;
  await receiver.stop();
});

async function subscribe(s: TestServer, path: string): Promise<LooseJson> {
  const r = await s.call('POST', '/v1/webhooks', {
    key: s.key('owner'),
    body: { url: `${receiver.url}${path}`, events: ['approval.pending'] },
  });
  expect(r.status).toBe(201);
  return r.json;
}

async function hold(s: TestServer, order: string): Promise<void> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', {
    key: s.key('agent'),
    body: { tool: 'issue_refund', arguments: { amount: '500', order } },
  });
  expect(r.json.decision).toBe('require_approval');
}

/** Ticks a delivery worker of `s` until `path` has `count` requests, or the attempts made are `count`. */
async function deliver(s: TestServer, path: string, count: number): Promise<void> {
  const worker = new DeliveryWorker(s.ctx, { node: 'seal-node', policy: ALLOW, timeoutMs: 2000 });
  for (let i = 0; i < 50 && receiver.at(path).length < count; i++) {
    await worker.tick();
    if (receiver.at(path).length < count) await new Promise((r) => setTimeout(r, 20));
  }
}

/** The body at `path`[index], verified with `secret` as a receiver does (Standard Webhooks). */
function verified(path: string, index: number, secret: string): LooseJson {
  const got = receiver.at(path)[index];
  if (!got) throw new Error(`nothing at ${path}[${index}]`);
  return new Webhook(secret).verify(got.body, {
    'webhook-id': String(got.headers['webhook-id']),
    'webhook-timestamp': String(got.headers['webhook-timestamp']),
    'webhook-signature': String(got.headers['webhook-signature']),
  });
}

/** Whether any row of any table holds `secret`, whole or its random part. */
async function heldAnywhere(s: TestServer, secret: string): Promise<boolean> {
  const random = secret.slice('whsec_'.length);
  return (await everyRowText(s)).some((row) => row.includes(secret) || row.includes(random));
}

for (const site of SITES) {
  describe.skipIf(site.skip !== undefined)(`webhook secrets at rest on ${site.name}${site.skip ? ` (skipped: ${site.skip})` : ''}`, () => {
    let opened: Site;
    const path = (name: string) => `${site.key}/${name}`;
    const running: TestServer[] = [];
    const start = async (custodial?: CustodialKeys) => {
      const s = await opened.start(custodial);
      running.push(s);
      return s;
    };
    const stop = async (s: TestServer) => {
      running.splice(running.indexOf(s), 1);
      await s.stop();
    };
    afterEach(async () => {
      for (const s of running.splice(0)) await s.stop();
      await opened?.close();
    });

    it('stores the secret sealed when made and when rotated; deliveries verify with the plain secret shown once', async () => {
      opened = await site.open();
      const s = await start();
      const made = await subscribe(s, path('made'));
      expect(made.secret).toMatch(/^whsec_/);
      const sealed = (await storedWebhookSecrets(s))[made.id];
      expect(sealed?.startsWith(SEALED_SECRET_PREFIX)).toBe(true);
      expect(await heldAnywhere(s, made.secret)).toBe(false);
      await hold(s, 'M-1');
      await deliver(s, path('made'), 1);
      expect(verified(path('made'), 0, made.secret)).toMatchObject({ type: 'approval.pending' });

      const rotated = await s.call('POST', `/v1/webhooks/${made.id}/rotate-secret`, { key: s.key('owner') });
      expect(rotated.status).toBe(200);
      expect(rotated.json.secret).toMatch(/^whsec_/);
      expect(rotated.json.secret).not.toBe(made.secret);
      const resealed = (await storedWebhookSecrets(s))[made.id];
      expect(resealed?.startsWith(SEALED_SECRET_PREFIX)).toBe(true);
      expect(resealed).not.toBe(sealed);
      expect(await heldAnywhere(s, rotated.json.secret)).toBe(false);
      expect(await heldAnywhere(s, made.secret)).toBe(false);
      await hold(s, 'M-2');
      await deliver(s, path('made'), 2);
      expect(verified(path('made'), 1, rotated.json.secret)).toMatchObject({ type: 'approval.pending' });
      expect(() => verified(path('made'), 1, made.secret)).toThrow();
    });

    it('seals at the next start the plain secrets an earlier version stored, and deliveries still verify', async () => {
      opened = await site.open();
      const first = await start();
      const current = await subscribe(first, path('plain'));
      const removed = await subscribe(first, path('plain-removed'));
      expect((await first.call('DELETE', `/v1/webhooks/${removed.id}`, { key: first.key('owner') })).status).toBe(200);
      // As a version before sealing stored them.
      const plain = newWebhookSecret();
      const plainRemoved = newWebhookSecret();
      await writeWebhookSecret(first, current.id, plain);
      await writeWebhookSecret(first, removed.id, plainRemoved);
      expect(await heldAnywhere(first, plain)).toBe(true);
      await stop(first);

      const next = await start();
      const stored = await storedWebhookSecrets(next);
      expect(Object.values(stored).map((secret) => secret.startsWith(SEALED_SECRET_PREFIX))).toEqual([true, true]);
      expect(await heldAnywhere(next, plain)).toBe(false);
      expect(await heldAnywhere(next, plainRemoved)).toBe(false);
      await hold(next, 'P-1');
      await deliver(next, path('plain'), 1);
      expect(verified(path('plain'), 0, plain)).toMatchObject({ type: 'approval.pending' });
      expect(receiver.at(path('plain-removed'))).toEqual([]);
    });

    it('never signs with a secret another member key secret sealed: the attempt fails with the code, and a start is refused', async () => {
      opened = await site.open();
      const s = await start(OTHER_KEYS);
      // A subscription whose secret the tests' own member key secret sealed, as a node given that secret makes it.
      const plain = newWebhookSecret();
      const foreign = sealWebhookSecret(plain, testCustodialKeys(), 'wh_foreign');
      await s.ctx.state.webhooks.create({
        id: 'wh_foreign',
        url: `${receiver.url}${path('foreign')}`,
        events: '["approval.pending"]',
        filters: '{}',
        include_arguments: 0,
        format: 'standard',
        secret: foreign,
        created_at: new Date().toISOString(),
        created_by: 'operator',
        removed_at: null,
      });
      await hold(s, 'F-1');
      const worker = new DeliveryWorker(s.ctx, { node: 'seal-node', policy: ALLOW, timeoutMs: 2000 });
      let attempts: LooseJson[] = [];
      for (let i = 0; i < 50 && attempts.length === 0; i++) {
        await worker.tick();
        attempts = (await s.call('GET', '/v1/webhooks/wh_foreign/deliveries', { key: s.key('owner') })).json.deliveries;
        if (attempts.length === 0) await new Promise((r) => setTimeout(r, 20));
      }
      expect(attempts).toEqual([
        expect.objectContaining({
          outcome: 'failed',
          status: 'pending',
          http_status: null,
          error: expect.stringMatching(/^MEMBER_KEY_SECRET_MISMATCH: /),
        }),
      ]);
      expect(receiver.at(path('foreign'))).toEqual([]);
      await stop(s);

      // Its members' keys open, the webhook's secret does not: the next start with it is refused, before any write.
      await expect(start(OTHER_KEYS)).rejects.toThrow(SecretMismatchError);
    });
  });
}
