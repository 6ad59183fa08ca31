// A node whose database connections die or stall stays up and answers within its bounds (docs/deploy.md,
// "Sizing"; apps/api/src/server/postgres/pool-bounds.ts): the node reaches PostgreSQL through a TCP proxy
// (db-proxy.ts) that can forward, cut every socket (and refuse new ones), or stall (accept and forward nothing). Calls
// made meanwhile are answered 503 DATABASE_UNAVAILABLE with Retry-After, never allowed and never left waiting past the
// configured bound; once the proxy forwards again the same server decides again, with no restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE, TEST_DATABASE_URL, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { POOL_BOUND_VARIABLES } from '../src/server/postgres/pool-bounds.ts';
import { DbProxy } from './db-proxy.ts';
import { migratedSchema, startPostgresServer } from './postgres-harness.ts';
import { agentKey, type TestServer } from './server-harness.ts';

const BOUNDS: Record<string, string> = {
  [POOL_BOUND_VARIABLES.connectionTimeoutMs]: '800',
  [POOL_BOUND_VARIABLES.queryTimeoutMs]: '1200',
  [POOL_BOUND_VARIABLES.statementTimeoutMs]: '1000',
  [POOL_BOUND_VARIABLES.lockTimeoutMs]: '1000',
};

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(`a node whose database fails under it ${POSTGRES_UNREACHABLE ?? ''}`, () => {
  let schema: TestSchema;
  let proxy: DbProxy;
  let server: TestServer;
  let key: string;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    schema = await migratedSchema('faults');
    const target = new URL(TEST_DATABASE_URL);
    proxy = new DbProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.open();
    const url = new URL(schema.url);
    url.host = `127.0.0.1:${proxy.port}`;
    for (const [name, value] of Object.entries(BOUNDS)) {
      saved[name] = process.env[name];
      process.env[name] = value;
    }
    try {
      server = await startPostgresServer(url.toString());
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    key = agentKey(server, 'support-bot');
  }, 30_000);

  afterAll(async () => {
    proxy?.set('forward');
    await server?.stop();
    await proxy?.close();
    await schema?.drop();
  });

  const call = (i: string) =>
    server.call('POST', '/v1/agents/support-bot/calls', { key, body: { tool: 'read_order', arguments: { order_id: `o-${i}` } } });

  const refusedOrDecided = (res: { status: number; json: { error?: { code: string } } }) => {
    if (res.status === 200) return 'decided';
    expect(res.status).toBe(503);
    expect(res.json.error?.code).toBe('DATABASE_UNAVAILABLE');
    return 'refused';
  };

  it('survives connections cut mid-flight, refuses meanwhile and decides again without a restart', async () => {
    expect((await call('before')).status).toBe(200);
    const inFlight = Array.from({ length: 8 }, (_, i) => call(`cut-${i}`));
    proxy.set('cut');
    for (const res of await Promise.all(inFlight)) refusedOrDecided(res);
    const refused = await call('while-cut');
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe('DATABASE_UNAVAILABLE');
    proxy.set('forward');
    let back = await call('after');
    // The first call after may meet a connection the pool had not yet found dead.
    if (back.status !== 200) back = await call('after-2');
    expect(back.status).toBe(200);
  }, 20_000);

  it('answers within the bound when the database stalls', async () => {
    proxy.set('stall');
    proxy.drop();
    const started = Date.now();
    const res = await call('stalled');
    const took = Date.now() - started;
    expect(refusedOrDecided(res)).toBe('refused');
    expect(took).toBeLessThan(4_000);
    proxy.set('forward');
    proxy.drop();
    let back = await call('after-stall');
    if (back.status !== 200) back = await call('after-stall-2');
    expect(back.status).toBe(200);
  }, 20_000);
});
