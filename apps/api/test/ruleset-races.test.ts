// Rule sets' lifecycle changed at once (docs/rulesets.md, "Versions and lifecycle"; docs/deploy.md, "Several nodes
// on PostgreSQL"): PATCHes of the status of different sets racing on one SQLite node and on two PostgreSQL nodes
// sharing one schema lose none; two metadata PATCHes from one read with the same If-Match apply once, the other 412;
// archives and restores racing apply once each; a status changed on one node is what the other node's GET
// answers within a few seconds; and a trial started or stopped on one node counts on the other from its next call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import type { AppContext } from '../src/server/context.ts';
import { migratedSchema, startPostgresServer } from './postgres-harness.ts';
import { agentKey, type HttpServer, type LooseJson, okJson, startSqliteServer, type TestServer } from './server-harness.ts';

const SUPPORT = 'rulesets/support.ruleset.json';
const path = (id: string) => `/v1/rulesets/${encodeURIComponent(id)}`;
/** How many sets race in one round. */
const SETS = 8;
/**
 * The longest a change on one node may take to reach another node's reads: about a second by the docs, with room
 * for a loaded machine's slow answers; a node that never hears of the change still fails it.
 */
const PROPAGATION_MS = 3_000;

/** Creates `count` rule sets pinning what the demo's support set pins, each a draft at version 1. */
async function createSets(server: HttpServer, label: string, count: number): Promise<string[]> {
  const support = await okJson(server.call('GET', path(SUPPORT), { key: server.key('owner') }));
  const pins = support.pins.map((p: LooseJson) => ({ rule_id: p.rule_id, version_id: p.version_id }));
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `rulesets/${label}-${i}.ruleset.json`;
    await okJson(server.call('POST', '/v1/rulesets', { key: server.key('owner'), body: { id, name: `${label} ${i}`, pins } }), 201);
    ids.push(id);
  }
  return ids;
}

/** A PATCH with If-Match `"1"`: the tag every set created by createSets has until a version is saved or it changes. */
function patchAt(server: HttpServer, id: string, body: unknown, tag: string) {
  return server.call('PATCH', path(id), { key: server.key('owner'), headers: { 'if-match': tag }, body });
}

async function etagOf(server: HttpServer, id: string): Promise<string> {
  const res = await fetch(`${server.url}${path(id)}`, { headers: { authorization: `Bearer ${server.key('owner')}` } });
  await res.body?.cancel();
  return res.headers.get('etag') as string;
}

async function statusOn(server: HttpServer, id: string): Promise<string> {
  return (await okJson(server.call('GET', path(id), { key: server.key('owner') }))).status;
}

/** Rounds of racing status changes of every set, spread over the servers: every change is kept everywhere. */
async function raceStatuses(servers: HttpServer[], ids: string[]): Promise<void> {
  for (const [round, status] of (['disabled', 'test', 'disabled'] as const).entries()) {
    const tags = await Promise.all(ids.map((id) => etagOf(servers[0] as HttpServer, id)));
    const answers = await Promise.all(
      ids.map((id, i) => patchAt(servers[(i + round) % servers.length] as HttpServer, id, { status }, tags[i] as string)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    for (const server of servers) {
      for (const id of ids) expect(await statusOn(server, id), `${id} in round ${round}`).toBe(status);
    }
  }
}

/** Two metadata PATCHes from one read: exactly one applies, the other is refused as the precondition failing. */
async function raceRenames(a: HttpServer, b: HttpServer, id: string): Promise<void> {
  const tag = await etagOf(a, id);
  const answers = await Promise.all([patchAt(a, id, { name: 'Renamed by A' }, tag), patchAt(b, id, { name: 'Renamed by B' }, tag)]);
  expect(answers.map((r) => r.status).sort()).toEqual([200, 412]);
  const refused = answers.find((r) => r.status === 412) as { json: LooseJson };
  expect(refused.json.error.code).toBe('PRECONDITION_FAILED');
  const applied = answers.find((r) => r.status === 200) as { json: LooseJson };
  expect(await okJson(b.call('GET', path(id), { key: b.key('owner') }))).toMatchObject({ name: applied.json.name });
  // The tag moved: a PATCH from the old read is refused, one from the new read applies.
  expect((await patchAt(a, id, { name: 'Late' }, tag)).status).toBe(412);
  expect((await patchAt(a, id, { name: 'Fresh' }, await etagOf(b, id))).status).toBe(200);
  // A status change checks the version part alone, as the console sends it (the newest version read).
  expect((await patchAt(b, id, { status: 'disabled' }, '"1"')).status).toBe(200);
  expect((await patchAt(b, id, { name: 'Stale' }, '"1"')).status).toBe(412);
}

/** Archives and restores racing over the servers: each applies once, and the set restores to the status it had. */
async function raceArchives(servers: HttpServer[], id: string): Promise<void> {
  const owner = (server: HttpServer) => ({ key: server.key('owner') });
  await okJson(patchAt(servers[0] as HttpServer, id, { status: 'disabled' }, await etagOf(servers[0] as HttpServer, id)));
  const archives = await Promise.all(
    servers.flatMap((server) => [0, 1].map(() => server.call('POST', `${path(id)}/archive`, { ...owner(server), body: {} }))),
  );
  expect(archives.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of archives.filter((x) => x.status !== 200)) expect(r.json.error.code).toBe('RULESET_ARCHIVED');
  const restores = await Promise.all(
    servers.flatMap((server) => [0, 1].map(() => server.call('POST', `${path(id)}/restore`, owner(server)))),
  );
  expect(restores.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of restores.filter((x) => x.status !== 200)) expect(r.json.error.code).toBe('RULESET_NOT_ARCHIVED');
  for (const server of servers) expect(await statusOn(server, id)).toBe('disabled');
}

describe('one SQLite node', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startSqliteServer();
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('loses none of the status changes of different sets made at once', async () => {
    await raceStatuses([s], await createSets(s, 'race', SETS));
  });

  it('archives and restores once of several at once, back to the status the set had', async () => {
    const [id] = await createSets(s, 'archive', 1);
    await raceArchives([s], id as string);
  });

  it('applies one of two metadata changes made from one read', async () => {
    const [id] = await createSets(s, 'rename', 1);
    await raceRenames(s, s, id as string);
  });
});

const SKIPPED = POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : '';

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(`two nodes on one PostgreSQL schema${SKIPPED}`, () => {
  let schema: TestSchema;
  let a: TestServer<AppContext>;
  let b: HttpServer;
  let stopB: () => Promise<void>;
  beforeAll(async () => {
    schema = await migratedSchema('ruleset-races');
    a = await startPostgresServer(schema.url);
    // The demo is seeded once: the second node reads the first's keys from its folder.
    const second = await startPostgresServer(schema.url, { dataDir: a.dataDir });
    b = second;
    stopB = () => second.stop();
  }, 30_000);
  afterAll(async () => {
    await stopB?.();
    await a?.stop();
    await schema?.drop();
  });

  it('loses none of the status changes of different sets made at once on both nodes', async () => {
    await raceStatuses([a, b], await createSets(a, 'race', SETS));
  });

  it('archives and restores once of several at once on two nodes, back to the status the set had', async () => {
    const [id] = await createSets(a, 'archive', 1);
    await raceArchives([a, b], id as string);
  });

  it('applies one of two metadata changes made from one read on two nodes', async () => {
    const [id] = await createSets(a, 'rename', 1);
    await raceRenames(a, b, id as string);
  });

  it("counts a trial started on one node from the other node's next call, and stops counting once stopped", async () => {
    const policy = 'policies/refunds.policy.json';
    const trial = `/v1/trials/${encodeURIComponent(policy)}`;
    const running = await a.ctx.store.get(policy);
    const candidate = await a.ctx.store.save({
      id: policy,
      text: (running?.text ?? '').replace('{', '{ '),
      author: { kind: 'person', label: 'test' },
      reason: 'a candidate',
      activate: false,
    });
    const call = () =>
      okJson(
        b.call('POST', '/v1/agents/support-bot/calls', {
          key: agentKey(a, 'support-bot'),
          body: { tool: 'read_order', arguments: { id: '7' } },
        }),
      );
    // B reads the trials before A starts one, so what it keeps is "none".
    await call();
    const body = { document: policy, sequence: candidate.sequence, sample_every: 1 };
    await okJson(a.call('POST', '/v1/trials', { key: a.key('owner'), body }), 201);
    await call();
    const counted = async (calls: number) => {
      const deadline = Date.now() + 5_000;
      for (;;) {
        const read = await okJson(a.call('GET', trial, { key: a.key('viewer') }));
        if (read.calls >= calls || Date.now() > deadline) return read.calls;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    expect(await counted(1)).toBe(1);
    await okJson(a.call('POST', `${trial}/stop`, { key: a.key('owner'), body: {} }));
    await call();
    await new Promise((r) => setTimeout(r, 200));
    expect(await counted(2)).toBe(1);
  });

  it("shows a status changed on one node in the other node's reads within a few seconds", async () => {
    const [id] = await createSets(a, 'seen', 1);
    const set = id as string;
    expect(await statusOn(b, set)).toBe('draft');
    for (const status of ['disabled', 'test', 'disabled']) {
      await okJson(patchAt(a, set, { status }, await etagOf(a, set)));
      const started = Date.now();
      while ((await statusOn(b, set)) !== status) {
        expect(Date.now() - started, `${status} on the other node`).toBeLessThan(PROPAGATION_MS);
        await new Promise((r) => setTimeout(r, 20));
      }
      const list = await okJson(b.call('GET', `/v1/rulesets?status=${status}`, { key: b.key('owner') }));
      expect(list.rulesets.map((r: LooseJson) => r.id)).toContain(set);
    }
  });
});
