// The review routes over real HTTP on loopback against a fresh demo data folder: the decision map of
// support-bot's tools under the refunds policy, an argument-dependent tool reported as depending, the
// impact preview of reverting v2 (auto limit 250) to v1 (limit 100), and the refusals.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentMapSchema, DocumentMapSchema, ImpactPreviewSchema } from '../src/server/routes/review-schemas.ts';
import { type LooseJson, okJson, startServer, type TestServer } from './server-harness.ts';

const POLICY = 'policies/refunds.policy.json';
const DOC = `/v1/documents/${encodeURIComponent(POLICY)}`;
const REFUNDS = JSON.parse(readFileSync(new URL('../../../examples/refunds.policy.json', import.meta.url), 'utf8'));

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.stop();
});

type Rule = { id: string; amount?: Record<string, string> };

/** The demo policy with the automatic refund limit at `limit` and `extra` rules added. */
function refundsWith(limit: string, extra: unknown[] = []): string {
  const rules = (REFUNDS.rules as Rule[]).map((r) => {
    if (r.id === 'refund-auto') return { ...r, amount: { ...r.amount, lte: limit } };
    if (r.id === 'refund-approval') return { ...r, amount: { ...r.amount, gt: limit } };
    return r;
  });
  return `${JSON.stringify({ ...REFUNDS, rules: [...rules, ...extra] }, null, 2)}\n`;
}

/** Stores `content` as the running version through the edits route (activating it if it was held). */
async function runVersion(content: string, reason: string): Promise<number> {
  const running = await okJson(server.call('GET', DOC, { key: server.key('viewer') }));
  const res = await server.call('POST', `${DOC}/edits`, {
    key: server.key('owner'),
    body: { content, reason, based_on: running.version.sequence },
  });
  expect([201], JSON.stringify(res.json)).toContain(res.status);
  const sequence = res.json.version.sequence as number;
  if (res.json.status === 'saved_not_running') {
    await okJson(server.call('POST', `${DOC}/activate`, { key: server.key('owner'), body: { sequence } }));
  }
  return sequence;
}

const tool = (tools: LooseJson[], name: string) => tools.find((t) => t.tool === name);

describe("an agent's decision map", () => {
  it("gives every tool of support-bot's catalogue its decision under the running refunds policy", async () => {
    const map = await okJson(server.call('GET', '/v1/agents/support-bot/decision-map', { key: server.key('viewer') }));
    expect(AgentMapSchema.strict().safeParse(map).error).toBeUndefined();
    expect(map.agent).toBe('support-bot');
    expect(map.catalogue).toBe('catalogue.yaml');
    expect(map.policies.map((p: LooseJson) => [p.document, p.version])).toEqual([[POLICY, 1]]);
    const tools = map.policies[0].tools as LooseJson[];
    expect(tools.map((t) => [t.tool, t.decision])).toEqual([
      ['read_order', 'allow'],
      ['search_orders', 'allow'],
      ['issue_refund', 'depends_on_amount'],
      ['send_payout', 'deny'],
      ['export_customers', 'deny'],
      ['read_customer', 'deny'],
    ]);
    const refund = tool(tools, 'issue_refund');
    // Three amount bands, and calls without an amount.
    expect(refund.bands.map((b: LooseJson) => [b.amount?.words ?? null, b.outcome.decision, b.outcome.rule])).toEqual([
      ['[0, 100]', 'allow', 'refund-auto'],
      ['(100, 1000]', 'require_approval', 'refund-approval'],
      ['(1000, inf)', 'deny', 'refund-over-limit'],
      [null, 'deny', 'refund-over-limit'],
    ]);
    // The workspace's members: the demo's owner, admin and approver may approve.
    const held = refund.bands[1].outcome;
    expect(held.approvers).toEqual({ roles: ['admin', 'approver', 'owner'], users: [] });
    const eligible = server.keys.members.filter((m) => ['owner', 'admin', 'approver'].includes(m.role)).map((m) => m.id);
    expect(held.eligible).toEqual([...eligible].sort());
    expect(refund.words).toContain('issue_refund (refund.issue): [0, 100] allow (refund-auto); (100, 1000] require approval');
    expect(tool(tools, 'read_customer').outcome).toEqual({ decision: 'deny', rule: null, code: 'DEFAULT', fail_closed: false });
  });

  it('maps refunds-bot under the policy version its rule set pins, and refuses a policy_version it cannot take', async () => {
    const map = await okJson(server.call('GET', '/v1/agents/refunds-bot/decision-map', { key: server.key('viewer') }));
    expect(map.policies.map((p: LooseJson) => [p.document, p.version])).toEqual([[POLICY, 1]]);
    const refused = await server.call('GET', '/v1/agents/refunds-bot/decision-map?policy_version=1', { key: server.key('viewer') });
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe('NO_AGENT_POLICY');
  });
});

describe('the impact preview', () => {
  it('of reverting v2 (auto limit 250) to v1 is exactly the narrowing of (100, 250]', async () => {
    const v2 = await runVersion(refundsWith('250'), 'auto limit 250');
    expect(v2).toBe(2);
    const preview = await okJson(server.call('GET', `${DOC}/impact-preview?candidate=1`, { key: server.key('viewer') }));
    expect(ImpactPreviewSchema.strict().safeParse(preview).error).toBeUndefined();
    expect([preview.running, preview.candidate, preview.source]).toEqual([2, 1, 'agents']);
    expect(preview.catalogues.map((k: LooseJson) => [k.id, k.agents])).toEqual([['catalogue.yaml', ['refunds-bot', 'support-bot']]]);
    const [catalogue] = preview.catalogues;
    expect(catalogue.unchanged).toEqual(['read_order', 'search_orders', 'send_payout', 'export_customers', 'read_customer']);
    expect(catalogue.tools.map((t: LooseJson) => t.tool)).toEqual(['issue_refund']);
    const [change, ...others] = catalogue.tools[0].changes;
    expect(others).toEqual([]);
    expect(change.kind).toBe('change');
    expect(change.region.amount).toEqual({ lo: '100', lo_inclusive: false, hi: '250', hi_inclusive: true, words: '(100, 250]' });
    expect(change.region.currency).toBe('USD');
    expect([change.from.decision, change.to.decision, change.direction]).toEqual(['allow', 'require_approval', 'narrows']);
    expect(change.words).toBe('issue_refund (refund.issue), amount in (100, 250] USD: allow -> require approval (narrows)');
    // The witness is a call in the region, written as JSON text.
    const amount = Number(JSON.parse(change.witness.arguments).amount);
    expect(amount > 100 && amount <= 250).toBe(true);
    expect([preview.widens, preview.narrows, preview.depends]).toEqual([false, true, false]);
    // Each tool's map under both versions.
    expect(catalogue.tools[0].running.bands[0].amount.words).toBe('[0, 250]');
    expect(catalogue.tools[0].candidate.bands[0].amount.words).toBe('[0, 100]');
  });

  it('the other way, from v1 running to v2, widens the same region', async () => {
    const preview = await okJson(server.call('GET', `${DOC}/impact-preview?candidate=2&running=1`, { key: server.key('viewer') }));
    const words = preview.catalogues[0].tools.flatMap((t: LooseJson) => t.changes.map((c: LooseJson) => c.words));
    expect(words).toEqual(['issue_refund (refund.issue), amount in (100, 250] USD: require approval -> allow (widens)']);
    expect([preview.widens, preview.narrows]).toEqual([true, false]);
  });
});

describe('an argument-dependent tool', () => {
  it('is reported as depending on arguments, with its rule, in the maps and the preview', async () => {
    const euSearch = { id: 'eu-search', actions: ['orders.search'], when: [{ path: '/region', eq: 'eu' }], effect: 'deny' };
    const v3 = await runVersion(refundsWith('250', [euSearch]), 'no searches in the eu');
    const map = await okJson(server.call('GET', '/v1/agents/support-bot/decision-map', { key: server.key('viewer') }));
    expect(map.policies[0].version).toBe(v3);
    const search = tool(map.policies[0].tools, 'search_orders');
    expect(search.decision).toBe('depends_on_arguments');
    expect(search.rules).toEqual(['eu-search']);
    expect(search.outcome).toBeUndefined();
    expect(search.words).toBe('search_orders (orders.search): depends on arguments (rules eu-search)');
    // An earlier version, asked for by number, does not depend on them.
    const before = await okJson(server.call('GET', '/v1/agents/support-bot/decision-map?policy_version=1', { key: server.key('viewer') }));
    expect(tool(before.policies[0].tools, 'search_orders').decision).toBe('allow');
    const docMap = await okJson(server.call('GET', `${DOC}/decision-map?version=${v3}`, { key: server.key('viewer') }));
    expect(DocumentMapSchema.strict().safeParse(docMap).error).toBeUndefined();
    expect([docMap.version, docMap.source]).toEqual([v3, 'agents']);
    expect(tool(docMap.catalogues[0].tools, 'search_orders').decision).toBe('depends_on_arguments');
    const preview = await okJson(server.call('GET', `${DOC}/impact-preview?candidate=${v3}&running=2`, { key: server.key('viewer') }));
    const changes = preview.catalogues[0].tools.flatMap((t: LooseJson) => t.changes);
    expect(changes.map((c: LooseJson) => [c.subject.label, c.from.decision, c.to.decision, c.direction])).toEqual([
      ['search_orders (orders.search)', 'allow', 'deny', 'narrows'],
    ]);
    // A deny whose condition cannot be read matches, failing closed: a missing region is refused too.
    expect(changes[0].region.arguments.map((a: LooseJson) => a.words)).toEqual([
      '(/region unreadable (missing or another type) or /region eq "eu")',
    ]);
    expect([undefined, 'eu']).toContain(JSON.parse(changes[0].witness.arguments).region);
  });
});

describe('a policy no agent uses', () => {
  it("is mapped over the workspace's catalogue, and says so", async () => {
    const id = encodeURIComponent('policies/payouts.policy.json');
    const content = JSON.stringify({
      schema: 'tollgate/policy@1',
      default: 'deny',
      rules: [{ id: 'pay', actions: ['payouts.*'], effect: 'allow' }],
    });
    const stored = await server.call('POST', `/v1/documents/${id}/edits`, {
      key: server.key('owner'),
      body: { content, reason: 'a payouts policy', based_on: null },
    });
    expect(stored.status, JSON.stringify(stored.json)).toBe(201);
    const map = await okJson(server.call('GET', `/v1/documents/${id}/decision-map`, { key: server.key('viewer') }));
    expect([map.source, map.catalogues.map((k: LooseJson) => [k.id, k.agents])]).toEqual(['workspace', [['catalogue.yaml', []]]]);
    expect(tool(map.catalogues[0].tools, 'send_payout').words).toBe('send_payout (payouts.send): allow (pay)');
  });
});

describe('a big policy', () => {
  it('is mapped on the compile thread with the same answer', async () => {
    // Rules for actions no tool has: the text passes the compile thread's threshold (16 KiB), the map is unchanged.
    const filler = Array.from({ length: 300 }, (_, i) => ({ id: `filler-${i}`, actions: [`filler.action-${i}`], effect: 'deny' }));
    const before = await okJson(server.call('GET', '/v1/agents/support-bot/decision-map', { key: server.key('viewer') }));
    const content = refundsWith('250', [
      ...filler,
      { id: 'eu-search', actions: ['orders.search'], when: [{ path: '/region', eq: 'eu' }], effect: 'deny' },
    ]);
    expect(content.length).toBeGreaterThan(16 * 1024);
    const big = await runVersion(content, 'many rules');
    const after = await okJson(server.call('GET', '/v1/agents/support-bot/decision-map', { key: server.key('viewer') }));
    expect(after.policies[0].version).toBe(big);
    expect(after.policies[0].tools).toEqual(before.policies[0].tools);
    const preview = await okJson(server.call('GET', `${DOC}/impact-preview?candidate=1&running=${big}`, { key: server.key('viewer') }));
    expect(preview.catalogues[0].tools.map((t: LooseJson) => t.tool)).toEqual(['search_orders', 'issue_refund']);
  });
});

describe('refusals', () => {
  it('answers a missing agent, document or version with 404 NOT_FOUND naming the resource', async () => {
    const key = server.key('viewer');
    const cases: [string, string][] = [
      ['/v1/agents/nobody/decision-map', 'agent'],
      [`/v1/documents/${encodeURIComponent('policies/nope.policy.json')}/decision-map`, 'document'],
      [`${DOC}/decision-map?version=99`, 'version'],
      [`${DOC}/impact-preview?candidate=99`, 'version'],
      [`${DOC}/impact-preview?candidate=1&running=99`, 'version'],
      ['/v1/agents/support-bot/decision-map?policy_version=99', 'version'],
    ];
    for (const [path, resource] of cases) {
      const res = await server.call('GET', path, { key });
      expect([path, res.status, res.json.error.code, res.json.error.details?.resource]).toEqual([path, 404, 'NOT_FOUND', resource]);
    }
  });

  it('answers a document that is not a policy with 400 NOT_A_POLICY', async () => {
    for (const route of ['decision-map', 'impact-preview?candidate=1']) {
      const res = await server.call('GET', `/v1/documents/catalogue.yaml/${route}`, { key: server.key('viewer') });
      expect([res.status, res.json.error.code]).toEqual([400, 'NOT_A_POLICY']);
      expect(res.json.error.message).toContain('catalogue.yaml is a catalogue, not a policy');
    }
  });

  it('refuses a bad query and a caller without a member key', async () => {
    const bad = await server.call('GET', `${DOC}/impact-preview?candidate=0`, { key: server.key('viewer') });
    expect([bad.status, bad.json.error.code]).toEqual([400, 'INVALID_QUERY']);
    const unknown = await server.call('GET', `${DOC}/decision-map?versions=1`, { key: server.key('viewer') });
    expect([unknown.status, unknown.json.error.code]).toEqual([400, 'INVALID_QUERY']);
    const agent = await server.call('GET', '/v1/agents/support-bot/decision-map', { key: server.key('agent') });
    expect(agent.status).toBe(403);
  });
});
