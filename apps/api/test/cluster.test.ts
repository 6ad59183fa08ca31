// Three `tollgate serve` nodes on one PostgreSQL database (docs/deploy.md, "The state stores"), as child
// processes over real HTTP: a claim raced over every node lets exactly one through; an activation on one node
// decides on the others within a few seconds, and an approval decided on one node reaches another's event stream
// as quickly; a node killed with SIGKILL under load loses no call it acknowledged; and a node declaring language
// revision 1 holds back a revision-2 policy until it is killed and its heartbeat expires; a key revoked or rotated on
// one node is refused on the next call on the others.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import {
  agentKey,
  type HttpServer,
  type LooseJson,
  okJson,
  patchRuleset,
  postEdit,
  REPO_ROOT,
  readDemoKeys,
  serverAt,
  spawnServer,
} from './server-harness.ts';
import { eventsOf, openEvents } from './sse-client.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const POLICY = 'policies/refunds.policy.json';
const CALLS = '/v1/agents/support-bot/calls';
/**
 * A short heartbeat (docs/deploy.md, the registry), so a killed node's row expires in 1.5 s; not shorter, so a live
 * node's heartbeat late on a loaded machine does not read as expired.
 */
const NODE_ENV = { TOLLGATE_GATEWAY_HEARTBEAT_MS: '500' };
/**
 * The longest an activation or an event may take to reach the other nodes: about a second by the docs, with room
 * for three nodes' slow answers on a loaded machine; a node that never hears of it still fails.
 */
const PROPAGATION_MS = 3_000;

type Node = HttpServer & { child: ChildProcess };

let schema: TestSchema | undefined;
const children: ChildProcess[] = [];
const dataDirs: string[] = [];
let nodes: Node[] = [];
let agent = '';

/** Starts `tollgate serve` on the test's schema with a data folder of its own; node 1 seeds the demo. */
async function startNode(options: { demo?: boolean; args?: string[] } = {}): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-cluster-'));
  dataDirs.push(dataDir);
  const { url, child } = await spawnServer(dataDir, options.args ?? [], {
    database: schema?.url,
    demo: options.demo ?? false,
    env: NODE_ENV,
  });
  children.push(child);
  return { ...serverAt(url, readDemoKeys(dataDirs[0] as string)), child };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

beforeAll(async () => {
  if (POSTGRES_UNREACHABLE !== undefined) return;
  schema = await freshSchema('cluster');
  const migrated = spawnSync(process.execPath, [BIN, 'migrate', '--database', schema.url], { cwd: REPO_ROOT, encoding: 'utf8' });
  expect(migrated.status, migrated.stderr).toBe(0);
  const first = await startNode({ demo: true });
  nodes = [first, await startNode(), await startNode()];
  agent = agentKey(first, 'support-bot');
}, 60_000);

afterAll(async () => {
  for (const child of children) await kill(child);
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  await schema?.drop();
}, 30_000);

const node = (i: number) => nodes[i] as Node;
const call = (n: Node, tool: string, args: Record<string, unknown>) =>
  n.call('POST', CALLS, { key: agent, body: { tool, arguments: args } });

/** The running refunds policy (read on node 1), changed: a description on its first rule, a new auto limit. */
async function policyText(change: { description?: string; autoLimit?: string }): Promise<string> {
  const doc = JSON.parse(
    (await okJson(node(0).call('GET', `/v1/documents/${encodeURIComponent(POLICY)}`, { key: node(0).key('owner') }))).text,
  );
  const rules = doc.rules as { id: string; description?: string; amount?: { lte?: string } }[];
  if (change.description !== undefined) (rules[0] as { description?: string }).description = change.description;
  const auto = rules.find((r) => r.id === 'refund-auto')?.amount;
  if (change.autoLimit !== undefined && auto) auto.lte = change.autoLimit;
  return `${JSON.stringify(doc, null, 2)}\n`;
}

const activate = (n: Node, sequence: number) =>
  n.call('POST', `/v1/documents/${encodeURIComponent(POLICY)}/activate`, { key: n.key('owner'), body: { sequence } });

/** Polls the call on every node until each decides `decision`; the milliseconds until the last one did. */
async function untilDecided(on: Node[], args: Record<string, unknown>, decision: string): Promise<number> {
  const started = performance.now();
  await Promise.all(
    on.map(async (n) => {
      for (;;) {
        const answer = await okJson(call(n, 'issue_refund', args));
        if (answer.decision === decision) return;
        if (performance.now() - started > 10_000) throw new Error(`${n.url} still decides ${answer.decision}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    }),
  );
  return performance.now() - started;
}

/** The events of the stream's complete blocks (the last may still be arriving). */
function completeEvents(text: string): { event: string; data: LooseJson }[] {
  return eventsOf(text.slice(0, text.lastIndexOf('\n\n') + 1));
}

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(
  `three nodes on one PostgreSQL database${POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : ''}`,
  () => {
    it('lets exactly one of 20 claims of an approved request, raced over the three nodes, through', async () => {
      const args = { amount: '500', order: 'C-1' };
      const held = await okJson(call(node(0), 'issue_refund', args));
      expect(held.decision).toBe('require_approval');
      const id = held.approval.id as string;
      expect((await okJson(node(1).call('POST', `/v1/approvals/${id}/approve`, { key: node(1).key('approver'), body: {} }))).status).toBe(
        'approved',
      );
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          node(i % 3).call('POST', `/v1/approvals/${id}/claim`, { key: agent, body: { arguments: args } }),
        ),
      );
      expect(claims.filter((c) => c.status === 200)).toHaveLength(1);
      const refused = claims.filter((c) => c.status !== 200);
      expect(refused.map((c) => [c.status, c.json?.error?.code])).toEqual(Array.from({ length: 19 }, () => [409, 'ALREADY_CLAIMED']));
    });

    it('refuses a key revoked, or rotated with no overlap, on one node on the next call on the others', async () => {
      const made = await okJson(
        node(0).call('POST', '/v1/keys', { key: node(0).key('owner'), body: { agent: 'support-bot', name: 'x' } }),
        201,
      );
      const gate = (n: number, key: string) =>
        node(n).call('POST', CALLS, { key, body: { tool: 'read_order', arguments: { order: 'K-1' } } });
      // Each node has read (and cached) the key before it changes.
      for (const n of [0, 1, 2]) expect((await gate(n, made.key)).status).toBe(200);
      const rotated = await okJson(
        node(1).call('POST', `/v1/keys/${made.id}/rotate`, { key: node(1).key('admin'), body: { overlap_seconds: 0 } }),
        201,
      );
      for (const n of [0, 2]) {
        const r = await gate(n, made.key);
        expect([r.status, r.json.error.code]).toEqual([401, 'KEY_EXPIRED']);
        expect((await gate(n, rotated.key)).status).toBe(200);
      }
      await okJson(node(2).call('POST', `/v1/keys/${rotated.id}/revoke`, { key: node(2).key('owner') }));
      for (const n of [0, 1]) {
        const r = await gate(n, rotated.key);
        expect([r.status, r.json.error.code]).toEqual([401, 'KEY_REVOKED']);
      }
    });

    it('has an edit and an activation on node 1 decide on nodes 2 and 3 within a few seconds', async () => {
      const args = { amount: '50', order: 'D-1' };
      const others = [node(1), node(2)];
      // The running policy allows 50 USD at once; every node has loaded it.
      expect(await untilDecided(others, args, 'allow')).toBeLessThan(5_000);
      // An auto limit of 10 leaves 50 USD to no rule: the policy's default, deny.
      const edit = await okJson(
        postEdit(node(0), POLICY, node(0).key('owner'), { content: await policyText({ autoLimit: '10' }), reason: 'lower the auto limit' }),
        201,
      );
      expect(edit.status).toBe('applied');
      const edited = await untilDecided(others, args, 'deny');
      expect(edited).toBeLessThan(PROPAGATION_MS);
      // Activating the version before it again is the same change the other way.
      await okJson(activate(node(0), edit.version.sequence - 1));
      const activated = await untilDecided(others, args, 'allow');
      expect(activated).toBeLessThan(PROPAGATION_MS);
    });

    it("has a rule set's status changed on one node decide on the others within a few seconds, and keep every node's change", async () => {
      const set = 'rulesets/support.ruleset.json';
      const refunds = agentKey(node(0), 'refunds-bot');
      const decides = async (on: Node[], expected: { decision: string; code?: string }): Promise<number> => {
        const started = performance.now();
        await Promise.all(
          on.map(async (n) => {
            for (;;) {
              const answer = await okJson(
                n.call('POST', '/v1/agents/refunds-bot/calls', {
                  key: refunds,
                  body: { tool: 'issue_refund', arguments: { amount: '50' } },
                }),
              );
              if (answer.decision === expected.decision && (expected.code === undefined || answer.code === expected.code)) return;
              if (performance.now() - started > 10_000) throw new Error(`${n.url} still decides ${answer.decision} ${answer.code}`);
              await new Promise((r) => setTimeout(r, 10));
            }
          }),
        );
        return performance.now() - started;
      };
      expect(await decides([node(1), node(2)], { decision: 'allow' })).toBeLessThan(5_000);
      expect((await patchRuleset(node(0), set, { status: 'disabled' })).status).toBe(200);
      expect(await decides([node(1), node(2)], { decision: 'deny', code: 'RULESET_DISABLED' })).toBeLessThan(PROPAGATION_MS);
      // Back to active from another node: every node runs it again, and node 1 read the change it did not make.
      expect((await patchRuleset(node(1), set, { status: 'active' })).status).toBe(200);
      expect(await decides([node(0), node(2)], { decision: 'allow' })).toBeLessThan(PROPAGATION_MS);
      const statuses = await Promise.all(
        nodes.map((n) => okJson(n.call('GET', `/v1/rulesets/${encodeURIComponent(set)}`, { key: n.key('owner') }))),
      );
      expect(statuses.map((v) => v.status)).toEqual(['active', 'active', 'active']);
    });

    it("has an approval decided on node 2 reach node 3's event stream within a few seconds", async () => {
      const stream = await openEvents(node(2).url, node(2).key('owner'));
      try {
        expect(stream.res.status).toBe(200);
        await stream.readUntil((t) => t.includes(': connected'));
        const held = await okJson(call(node(0), 'issue_refund', { amount: '300', order: 'E-1' }));
        const id = held.approval.id as string;
        // Timed from the request: the event may reach node 3 before node 2's answer reaches the test.
        const decided = performance.now();
        await okJson(node(1).call('POST', `/v1/approvals/${id}/approve`, { key: node(1).key('approver'), body: {} }));
        const isDecided = (e: { event: string; data: LooseJson }) =>
          e.event === 'approval' && e.data.id === id && e.data.status === 'approved';
        await stream.readUntil((t) => completeEvents(t).some(isDecided), 5_000);
        expect(performance.now() - decided).toBeLessThan(PROPAGATION_MS);
        // The held call reached it too, before its decision.
        expect(completeEvents(await stream.readUntil(() => true)).filter((e) => e.data.id === id)[0]?.data.status).toBe('pending');
      } finally {
        stream.close();
      }
    });

    it('loses no call a node acknowledged before it was killed with SIGKILL, and the other nodes keep answering', async () => {
      const victim = node(2);
      const acknowledged: string[] = [];
      let killed = false;
      // Eight clients call node 3 back to back until it is gone; a call counts once its whole answer arrived.
      const client = async (k: number) => {
        for (let i = 0; ; i++) {
          try {
            const r = await call(victim, 'read_order', { id: `K-${k}-${i}` });
            if (r.status !== 200) throw new Error(`node 3 answered ${r.status}: ${r.text}`);
            acknowledged.push(r.json.call_id);
          } catch (err) {
            if (killed) return;
            throw err;
          }
        }
      };
      const clients = Array.from({ length: 8 }, (_, k) => client(k));
      const deadline = Date.now() + 15_000;
      while (acknowledged.length < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      killed = true;
      await kill(victim.child);
      await Promise.all(clients);
      expect(acknowledged.length).toBeGreaterThanOrEqual(300);

      const missing: string[] = [];
      for (let i = 0; i < acknowledged.length; i += 16) {
        const reads = acknowledged.slice(i, i + 16).map(async (id) => {
          const r = await node(0).call('GET', `/v1/decisions/${id}`, { key: node(0).key('owner') });
          if (r.status !== 200 || r.json.call_id !== id) missing.push(id);
        });
        await Promise.all(reads);
      }
      expect(missing).toEqual([]);
      for (const n of [node(0), node(1)]) {
        for (let i = 0; i < 5; i++) expect((await okJson(call(n, 'read_order', { id: `after-${i}` }))).decision).toBe('allow');
      }
    }, 40_000);

    it('holds back a revision-2 policy while a node declaring revision 1 is live, and runs it once that node is killed and expired', async () => {
      const old = await startNode({ args: ['--language-revision', '1'] });
      const gateways = async () =>
        (await okJson(node(0).call('GET', '/v1/gateways', { key: node(0).key('admin') }))).gateways as LooseJson[];
      const oldRow = (await gateways()).find((g) => g.live && g.language_revision === 1);
      expect(oldRow).toBeDefined();

      const edit = await okJson(
        postEdit(node(0), POLICY, node(0).key('owner'), {
          content: await policyText({ description: 'Reading orders is always fine.' }),
          reason: 'explain the read rule',
        }),
        201,
      );
      expect(edit.status).toBe('saved_not_running');
      for (const n of [node(0), node(1)]) {
        const refused = await activate(n, edit.version.sequence);
        expect(refused.status).toBe(409);
        expect(refused.json.error).toMatchObject({ code: 'GATEWAYS_NOT_UPGRADED', details: { revision: 2 } });
        expect(refused.json.error.details.gateways.map((g: { id: string }) => g.id)).toEqual([oldRow.id]);
      }

      await kill(old.child);
      const deadline = Date.now() + 10_000;
      while ((await gateways()).some((g) => g.id === oldRow.id && g.live)) {
        if (Date.now() > deadline) throw new Error('the killed node stayed live');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect((await okJson(activate(node(0), edit.version.sequence))).version.sequence).toBe(edit.version.sequence);
      const running = await okJson(node(1).call('GET', `/v1/documents/${encodeURIComponent(POLICY)}`, { key: node(1).key('owner') }));
      expect(running.version.sequence).toBe(edit.version.sequence);
    }, 40_000);
  },
);
