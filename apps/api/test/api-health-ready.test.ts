// Liveness and readiness over real HTTP (server/health/readiness.ts): both answer without a key, live while the
// process answers, ready naming each check and whether it passes, and nothing more. On PostgreSQL readiness
// fails while the node's schema cannot be read (renamed away) and while the node is off the registry, and comes
// back without a restart.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE, TEST_DATABASE_URL } from '../../../packages/store/test/postgres-fixture.ts';
import { createApp } from '../src/server/app.ts';
import { migratedSchema, startPostgresServer } from './postgres-harness.ts';
import { startSqliteServer, type TestServer } from './server-harness.ts';

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

interface Answer {
  status: string;
  checks?: { name: string; ok: boolean }[];
}

async function get(server: TestServer, path: string): Promise<{ status: number; json: Answer }> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, json: (await res.json()) as Answer };
}

const failing = (json: Answer) => (json.checks ?? []).filter((c) => !c.ok).map((c) => c.name);

describe('liveness and readiness on SQLite', () => {
  it('answers live and ready without a key, naming only the checks', async () => {
    const server = await startSqliteServer();
    stops.push(() => server.stop());
    expect(await get(server, '/v1/health/live')).toEqual({ status: 200, json: { status: 'ok' } });
    const ready = await get(server, '/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.json.status).toBe('ready');
    expect(ready.json.checks?.map((c) => c.name).sort()).toEqual(['database', 'decision_log', 'document_store', 'draining', 'migrations']);
    for (const check of ready.json.checks ?? []) expect(Object.keys(check).sort()).toEqual(['name', 'ok']);
    expect((await fetch(`${server.url}/v1/health/ready?x=1`)).status).toBe(400);
    // The existing health answer is unchanged.
    expect(await get(server, '/v1/health')).toEqual({ status: 200, json: { status: 'ok' } });
  });
});

describe('readiness while draining', () => {
  it('fails `draining` first once a stop begins (cli/drain.ts)', async () => {
    const server = await startSqliteServer();
    stops.push(() => server.stop());
    const drain = { draining: false };
    const app = createApp({ ctx: server.ctx, drain });
    expect((await app.request('/v1/health/ready')).status).toBe(200);
    drain.draining = true;
    const res = await app.request('/v1/health/ready');
    expect(res.status).toBe(503);
    expect(failing((await res.json()) as Answer)).toEqual(['draining']);
    expect((await app.request('/v1/health/live')).status).toBe(200);
  });
});

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(`readiness on PostgreSQL ${POSTGRES_UNREACHABLE ?? ''}`, () => {
  it('fails while the schema cannot be read or the node is off the registry, and recovers', async () => {
    const schema = await migratedSchema('ready');
    const server = await startPostgresServer(schema.url, { node: { languageRevision: 3 } });
    stops.push(async () => {
      await server.stop();
      await schema.drop();
    });
    const ready = await get(server, '/v1/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.json.checks?.map((c) => c.name)).toContain('node_registered');

    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await admin.query(`ALTER SCHEMA ${schema.name} RENAME TO ${schema.name}_away`);
      const away = await get(server, '/v1/health/ready');
      expect(away.status).toBe(503);
      expect(away.json.status).toBe('unready');
      expect(failing(away.json)).toEqual(expect.arrayContaining(['migrations', 'node_registered']));
      expect(failing(away.json)).not.toContain('database');
      await admin.query(`ALTER SCHEMA ${schema.name}_away RENAME TO ${schema.name}`);
    } finally {
      await admin.end();
    }
    expect((await get(server, '/v1/health/ready')).status).toBe(200);

    await server.ctx.node?.stop();
    const off = await get(server, '/v1/health/ready');
    expect(off.status).toBe(503);
    expect(failing(off.json)).toEqual(['node_registered']);
    expect((await get(server, '/v1/health/live')).status).toBe(200);
  });
});
