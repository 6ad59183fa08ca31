// The language gate across gateway nodes on one data folder (docs/deploy.md): a server in this process and
// `tollgate serve --language-revision 1` (or `tollgate mcp`, through the SDK's Client) run as child processes
// over the same folder. While the old node is
// live, a revision-2 policy is never made to run (activate, revert, an edit, a rule set's version); once it
// stops and its heartbeat expires, it is; and an old node denies every call of an agent whose policy it cannot
// read. The registry's liveness is held equal to a plain model over random nodes, through real SQLite.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/server/state/db.ts';
import { type LanguageRevision, laggingNodes, WINDOW_HEARTBEATS } from '../src/server/state/nodes/model.ts';
import { listNodes as listGateways } from '../src/server/state/nodes/sqlite.ts';
import { errorOf, mapUpstreams, nodeUpstream, RECORDER, recordedCalls } from './mcp-fixture.ts';
import { agentKey, okJson, patchRuleset, postEdit, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const POLICY = 'policies/refunds.policy.json';
const SET = 'rulesets/support.ruleset.json';
/** Short, so a killed node expires in 1.5 s; not shorter, so a live node's late heartbeat on a loaded machine keeps it live. */
const HEARTBEAT_MS = 500;

/** The nodes the registry on `db` holds back a revision for, by the rule the language gate applies (state/nodes/model.ts). */
const laggingGateways = (db: Db, revision: LanguageRevision, now: Date) => laggingNodes(listGateways(db, now), revision);

let s: TestServer;
const children: ChildProcess[] = [];

/** Starts `tollgate serve --language-revision N` on the test server's data folder; resolves with its URL. */
function startNode(revision: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--data', s.dataDir, '--port', '0', '--language-revision', String(revision)], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TOLLGATE_GATEWAY_HEARTBEAT_MS: String(HEARTBEAT_MS) },
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the node did not start: ${out}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /serving the console and API at (http:\/\/[^/\s]+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1] as string, child });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the node exited with ${code}: ${out}`));
    });
  });
}

const gateways = async () => (await okJson(s.call('GET', '/v1/gateways', { key: s.key('admin') }))).gateways as LooseGateway[];
type LooseGateway = { id: string; version: string; language_revision: number; live: boolean; last_seen: string; started_at: string };

/** Waits until no node is live (a killed node's heartbeat expires after three heartbeats). */
async function untilNoneLive(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await gateways()).some((g) => g.live)) {
    if (Date.now() > deadline) throw new Error('a node stayed live');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

const running = async () =>
  (await okJson(s.call('GET', `/v1/documents/${encodeURIComponent(POLICY)}`, { key: s.key('owner') }))).version.sequence;
const activate = (sequence: number) =>
  s.call('POST', `/v1/documents/${encodeURIComponent(POLICY)}/activate`, { key: s.key('owner'), body: { sequence } });

type Rule = { id: string; description?: string; amount?: { lte?: string } };

/** The running refunds policy changed: a description makes it revision 2, a new auto limit leaves it as it was. */
async function policyText(change: { description?: string | null; autoLimit?: string }): Promise<string> {
  const doc = JSON.parse((await okJson(s.call('GET', `/v1/documents/${encodeURIComponent(POLICY)}`, { key: s.key('owner') }))).text);
  const rules = doc.rules as Rule[];
  if (change.description === null) delete rules[0]?.description;
  else if (change.description !== undefined) (rules[0] as Rule).description = change.description;
  const auto = rules.find((r) => r.id === 'refund-auto')?.amount;
  if (change.autoLimit !== undefined && auto) auto.lte = change.autoLimit;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

beforeAll(async () => {
  s = await startServer();
}, 30_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) await kill(child);
  await s?.stop();
});

describe('the language gate', () => {
  it('holds back a revision-2 policy while a live node decides revision 1, and lets it run once the node is gone', async () => {
    const old = await startNode(1);
    const [node] = await gateways();
    expect(node).toMatchObject({ version: '0.1.0', language_revision: 1, live: true });

    // A revision-1 edit is never held back.
    const plain = await okJson(
      postEdit(s, POLICY, s.key('owner'), { content: await policyText({ autoLimit: '99' }), reason: 'lower auto limit' }),
      201,
    );
    expect(plain.status).toBe('applied');
    expect(await running()).toBe(plain.version.sequence);

    // A revision-2 edit is kept as a version that does not run, saying why.
    const edit = await okJson(
      postEdit(s, POLICY, s.key('owner'), {
        content: await policyText({ description: 'Reading orders is always fine.' }),
        reason: 'explain',
      }),
      201,
    );
    expect(edit.status).toBe('saved_not_running');
    expect(edit.reasons).toMatchObject([{ code: 'GATEWAYS_NOT_UPGRADED', severity: 'info' }]);
    expect(edit.reasons[0].message).toContain(node?.id);
    expect(await running()).toBe(plain.version.sequence);

    // Activating it is refused, naming the old node, and changes nothing.
    const refused = await activate(edit.version.sequence);
    expect(refused.status).toBe(409);
    expect(refused.json.error).toMatchObject({
      code: 'GATEWAYS_NOT_UPGRADED',
      details: { revision: 2, gateways: [{ id: node?.id, version: '0.1.0', language_revision: 1, last_seen: expect.any(String) }] },
    });
    expect(await running()).toBe(plain.version.sequence);

    // Killed, the node's row stays until its heartbeat expires; then the version runs.
    await kill(old.child);
    await untilNoneLive();
    expect(await gateways()).toMatchObject([{ id: node?.id, live: false }]);
    expect((await okJson(activate(edit.version.sequence))).version.sequence).toBe(edit.version.sequence);
    expect(await running()).toBe(edit.version.sequence);
  }, 40_000);

  it('has an old node deny every call of an agent whose policy it cannot read, and records the denial', async () => {
    expect(await running()).toBeGreaterThan(1);
    const old = await startNode(1);
    const body = { tool: 'issue_refund', arguments: { amount: '50', order: 'A-1' } };
    const key = agentKey(s, 'support-bot');
    const denied = await okJson(fetchJson(old.url, '/v1/agents/support-bot/calls', key, body));
    expect(denied).toMatchObject({ decision: 'deny', code: 'LANGUAGE_REVISION_UNSUPPORTED', rule: null });
    // The node that reads revision 2 decides the same call by the policy.
    expect(await okJson(s.call('POST', '/v1/agents/support-bot/calls', { key, body }))).toMatchObject({ decision: 'allow' });
    const recorded = await untilRecorded(denied.call_id);
    expect(recorded).toMatchObject({ decision: 'deny', code: 'LANGUAGE_REVISION_UNSUPPORTED', agent: 'support-bot' });

    // A clean stop takes the node off the registry at once.
    const id = (await gateways()).find((g) => g.live)?.id;
    expect(id).toBeDefined();
    const exited = new Promise((r) => old.child.once('exit', r));
    old.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect((await gateways()).map((g) => g.id)).not.toContain(id);
  }, 40_000);

  it('has tollgate mcp register as a node of its revision and deny the calls it cannot decide, before any upstream', async () => {
    const record = join(s.dataDir, 'recorded.jsonl');
    await mapUpstreams(s, [nodeUpstream('recorder', RECORDER, [], ['RECORD_FILE'])], {
      issue_refund: { server: 'recorder', tool: 'refund' },
    });
    const client = new Client({ name: 'old-agent', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--agent', 'support-bot', '--data', s.dataDir, '--language-revision', '1'],
        env: {
          PATH: process.env.PATH ?? '',
          TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot'),
          RECORD_FILE: record,
          TOLLGATE_GATEWAY_HEARTBEAT_MS: String(HEARTBEAT_MS),
        },
        stderr: 'ignore',
      }),
    );
    let id: string | undefined;
    try {
      const live = (await gateways()).filter((g) => g.live);
      expect(live).toMatchObject([{ language_revision: 1, version: '0.1.0' }]);
      id = live[0]?.id;
      const error = errorOf(await client.callTool({ name: 'issue_refund', arguments: { amount: '50', order: 'A-9' } }));
      expect(error.code).toBe('LANGUAGE_REVISION_UNSUPPORTED');
      expect(recordedCalls(record)).toEqual([]);
    } finally {
      await client.close();
    }
    // Its client gone, the node stops cleanly and its row is removed (not merely left to expire).
    const listed = async () => (await gateways()).some((g) => g.id === id);
    const deadline = Date.now() + 10_000;
    while ((await listed()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await listed()).toBe(false);
  }, 40_000);

  it('refuses a revert or a rule set version that would make a revision-2 policy run while an old node is live', async () => {
    await untilNoneLive();
    // A revision-1 version runs on top of the revision-2 one, so a revert would return to revision 2.
    const content = await policyText({ description: null, autoLimit: '80' });
    const plain = await okJson(postEdit(s, POLICY, s.key('owner'), { content, reason: 'drop the description' }), 201);
    expect(plain.status).toBe('applied');
    const revision2 = plain.version.sequence - 1;
    // The set's pins moved to the revision-2 version make a draft version of the set.
    const moved = await okJson(
      patchRuleset(s, SET, {
        pins: [
          { rule_id: POLICY, version_id: revision2 },
          { rule_id: 'sheets/support.rules.yaml', version_id: 1 },
        ],
      }),
    );
    const old = await startNode(1);
    try {
      const revert = await s.call('POST', `/v1/documents/${encodeURIComponent(POLICY)}/revert`, { key: s.key('owner') });
      expect(revert.status).toBe(409);
      expect(revert.json.error).toMatchObject({ code: 'GATEWAYS_NOT_UPGRADED', details: { revision: 2 } });
      expect(await running()).toBe(plain.version.sequence);
      const patch = await patchRuleset(s, SET, { active_version: moved.version_id });
      expect(patch.status).toBe(409);
      expect(patch.json.error.code).toBe('GATEWAYS_NOT_UPGRADED');
      const set = await okJson(s.call('GET', `/v1/rulesets/${encodeURIComponent(SET)}`, { key: s.key('owner') }));
      expect(set.active_version).toBe(1);
    } finally {
      await kill(old.child);
    }

    // With no old node the set runs the revision-2 pin; a policy disabled meanwhile stops the set, and making it
    // usable again while an old node is live would make the set run it: refused, its status unchanged.
    await untilNoneLive();
    await okJson(patchRuleset(s, SET, { active_version: moved.version_id }));
    const status = (value: string) =>
      s.call('POST', `/v1/documents/${encodeURIComponent(POLICY)}/status`, { key: s.key('owner'), body: { status: value } });
    await okJson(status('disabled'));
    const again = await startNode(1);
    try {
      const enabled = await status('active');
      expect(enabled.status).toBe(409);
      expect(enabled.json.error).toMatchObject({ code: 'GATEWAYS_NOT_UPGRADED', details: { revision: 2 } });
    } finally {
      await kill(again.child);
    }
    await untilNoneLive();
    expect((await okJson(status('active'))).status).toBe('active');
  }, 40_000);

  it('lists gateways to owners and admins only', async () => {
    const r = await s.call('GET', '/v1/gateways', { key: s.key('developer') });
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('ROLE_REQUIRED');
  });

  it('refuses a --language-revision other than 1, 2, 3 or 4 as a usage error', () => {
    for (const bad of ['0', '5', 'two', '2.0']) {
      const r = spawnSync(process.execPath, [BIN, 'mcp', '--agent', 'x', '--language-revision', bad], { cwd: REPO_ROOT, encoding: 'utf8' });
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('--language-revision is 1, 2, 3 or 4');
    }
  }, 30_000);
});

describe('the gateway registry', () => {
  it('refuses a revision exactly when some live node decides less, for random nodes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-gateways-'));
    const db = openDatabase(join(dir, 'tollgate.db'));
    const now = new Date('2026-06-01T12:00:00.000Z');
    const node = fc.record({
      revision: fc.constantFrom(1, 2, 3),
      heartbeat: fc.integer({ min: 1, max: 10_000 }),
      age: fc.integer({ min: 0, max: 60_000 }),
    });
    try {
      fc.assert(
        fc.property(fc.array(node, { maxLength: 8 }), fc.constantFrom(1, 2, 3), (nodes, revision) => {
          db.exec('DELETE FROM gateways');
          const insert = db.prepare('INSERT INTO gateways VALUES (?, ?, ?, ?, ?, ?)');
          nodes.forEach((n, i) => {
            const seen = new Date(now.getTime() - n.age).toISOString();
            insert.run(`n${i}`, '0.1.0', n.revision, n.heartbeat, seen, seen);
          });
          const expected = nodes
            .map((n, i) => ({ id: `n${i}`, ...n }))
            .filter((n) => n.age <= n.heartbeat * WINDOW_HEARTBEATS && n.revision < revision)
            .map((n) => n.id);
          const lagging = laggingGateways(db, revision as 1 | 2 | 3, now).map((g) => g.id);
          expect(lagging.sort()).toEqual(expected.sort());
          // Revision 1 is never held back; liveness is the same in the list as in the rule.
          if (revision === 1) expect(lagging).toEqual([]);
          for (const g of listGateways(db, now)) {
            const n = nodes[Number(g.id.slice(1))];
            expect(g.live).toBe(n !== undefined && n.age <= n.heartbeat * WINDOW_HEARTBEATS);
          }
        }),
        { numRuns: 200 },
      );
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function fetchJson(url: string, path: string, key: string, body: unknown) {
  const res = await fetch(url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/** The decision as the in-process server reads it from the shared database, once the other node wrote it. */
async function untilRecorded(callId: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await s.call('GET', `/v1/decisions/${callId}`, { key: s.key('owner') });
    if (r.status === 200) return r.json;
    if (Date.now() > deadline) throw new Error(`decision ${callId} was not recorded: ${r.text}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}
