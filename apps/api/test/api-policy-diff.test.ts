// POST /v1/policies/diff over real HTTP against a fresh demo workspace (docs/review.md, "In the API and the CLI"):
// the same two texts give the same entries through the route and `tollgate policy diff --json` (small texts inline,
// big ones on the compile thread), over the hypothetical tools, a tools list or a catalogue; an unreadable text is
// refused with its codes, where, and which side.
import { readCatalogue } from '@tollgate/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INLINE_MAX_CHARS } from '../src/server/compile-thread.ts';
import { judgedMembers } from '../src/server/review/sources.ts';
import { DecisionDiffSchema } from '../src/server/routes/review-schemas.ts';
import { bindingOf } from '../src/server/state/tools/model.ts';
import { REFUNDS, runCli, workspace } from './cli-harness.ts';
import { type LooseJson, okJson, startServer, type TestServer } from './server-harness.ts';

const DIFF = '/v1/policies/diff';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.stop();
});

type Rule = { id: string; amount?: Record<string, string> };

/** The refunds example with the automatic limit at `limit` and `extra` rules added, as text. */
function refundsWith(limit: string, extra: unknown[] = []): string {
  const rules = (REFUNDS.rules as Rule[]).map((r) => {
    if (r.id === 'refund-auto') return { ...r, amount: { ...r.amount, lte: limit } };
    if (r.id === 'refund-approval') return { ...r, amount: { ...r.amount, gt: limit } };
    return r;
  });
  return `${JSON.stringify({ ...REFUNDS, rules: [...rules, ...extra] }, null, 2)}\n`;
}

/** What `tollgate policy diff --json` prints for the two texts, judged with the workspace's members. */
async function cliDiff(running: string, candidate: string, tools?: unknown[]): Promise<LooseJson> {
  const w = workspace();
  const args = ['policy', 'diff', w.file('running.json', running), w.file('candidate.json', candidate), '--json'];
  args.push('--members', w.file('members.json', await judgedMembers(server.ctx)));
  if (tools) args.push('--tools', w.file('tools.json', tools));
  const run = await runCli(...args);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout);
}

function diff(body: unknown, who: 'viewer' | 'developer' | 'agent' = 'viewer') {
  return server.call('POST', DIFF, { key: server.key(who), body });
}

/** The demo catalogue's tools as bindings, read from its running version. */
async function demoTools(): Promise<unknown[]> {
  const doc = await okJson(server.call('GET', `/v1/documents/catalogue.yaml`, { key: server.key('viewer') }));
  const read = readCatalogue(doc.text, 'yaml');
  if (!read.ok) throw new Error('the demo catalogue does not read');
  return read.catalogue.tools.map(bindingOf);
}

const V2 = refundsWith('250');
const V1_WITH_REGION = refundsWith('100', [
  { id: 'eu-read', actions: ['orders.read'], when: [{ path: '/region', eq: 'eu' }], effect: 'deny' },
  { id: 'bulk-search', actions: ['orders.search'], when: [{ path: '/limit', gt: '50' }], effect: 'deny' },
]);

describe('POST /v1/policies/diff', () => {
  it('answers what `tollgate policy diff --json` prints for the same texts, over every class of tools', async () => {
    const answer = await okJson(diff({ running: V2, candidate: V1_WITH_REGION }));
    expect(DecisionDiffSchema.strict().safeParse(answer).error).toBeUndefined();
    expect(answer).toEqual(await cliDiff(V2, V1_WITH_REGION));
    expect(answer.narrows).toBe(true);
    expect(answer.entries.map((e: LooseJson) => e.words)).toContain(
      'refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)',
    );
    // A developer may read it too, an agent's key may not.
    expect((await diff({ running: V2, candidate: V1_WITH_REGION }, 'developer')).status).toBe(200);
    expect((await diff({ running: V2, candidate: V1_WITH_REGION }, 'agent')).status).toBe(403);
  });

  it('diffs over a tools list or a catalogue as the CLI does over a tools file', async () => {
    const tools = await demoTools();
    const overTools = await okJson(diff({ running: V2, candidate: V1_WITH_REGION, tools }));
    expect(overTools).toEqual(await cliDiff(V2, V1_WITH_REGION, tools));
    expect(overTools.entries[0].subject.label).toMatch(/^[a-z_]+ \(/);
    expect(await okJson(diff({ running: V2, candidate: V1_WITH_REGION, catalogue: 'catalogue.yaml' }))).toEqual(overTools);
    // Two texts that decide alike: no entry.
    expect(await okJson(diff({ running: V2, candidate: V2, catalogue: 'catalogue.yaml' }))).toEqual({
      entries: [],
      widens: false,
      narrows: false,
      depends: false,
    });
  });

  it('answers the same for texts big enough for the compile thread', async () => {
    const padding = Array.from({ length: 120 }, (_, i) => ({ id: `pad-${i}`, actions: [`padding.a${i}`], effect: 'deny' }));
    const running = refundsWith('250', padding);
    const candidate = refundsWith('100', padding);
    expect(running.length + candidate.length).toBeGreaterThan(INLINE_MAX_CHARS);
    const answer = await okJson(diff({ running, candidate }));
    expect(answer).toEqual(await cliDiff(running, candidate));
    expect(answer.entries.length).toBeGreaterThan(0);
  });

  it('refuses an unreadable or invalid text with its codes, where, and which side', async () => {
    const notJson = await diff({ running: '{\n  "schema": "tollgate/policy@1",\n  "rules": [\n', candidate: V2 });
    expect(notJson.status).toBe(422);
    expect(notJson.json.error.code).toBe('INVALID_POLICY');
    expect(notJson.json.error.details.side).toBe('running');
    expect(notJson.json.error.details.problems[0]).toMatchObject({
      severity: 'error',
      line: expect.any(Number),
      column: expect.any(Number),
    });

    const twice = await diff({ running: V2, candidate: V2.replace('"default": "deny",', '"default": "deny",\n  "default": "allow",') });
    expect(twice.status).toBe(422);
    expect(twice.json.error.details).toMatchObject({ side: 'candidate', problems: [{ code: 'DUPLICATE_MEMBER', line: 4 }] });

    const badRule = await diff({ running: V2, candidate: refundsWith('100', [{ id: 'x', actions: ['a.b'], effect: 'maybe' }]) });
    expect(badRule.status).toBe(422);
    expect(badRule.json.error.details.side).toBe('candidate');
    expect(badRule.json.error.details.problems.map((p: LooseJson) => p.path)).toContain('/rules/5/effect');

    const kept = await diff({ running: V2, candidate: refundsWith('100.0000000000000000001') });
    expect([kept.status, kept.json.error.details.side]).toEqual([422, 'candidate']);
  });

  it('refuses a body of the wrong shape, a catalogue it cannot read, and a body over the limit', async () => {
    const both = await diff({ running: V2, candidate: V2, tools: [], catalogue: 'catalogue.yaml' });
    const notCatalogue = await diff({ running: V2, candidate: V2, catalogue: 'policies/refunds.policy.json' });
    const missingText = await diff({ running: V2 });
    expect([both.status, notCatalogue.status, missingText.status]).toEqual([400, 400, 400]);
    expect(both.json.error.code).toBe('INVALID_BODY');

    const missing = await diff({ running: V2, candidate: V2, catalogue: 'catalogues/none.yaml' });
    expect([missing.status, missing.json.error.code]).toEqual([409, 'CATALOGUE_MISSING']);

    const badTools = await diff({ running: V2, candidate: V2, tools: [{ name: 'x' }] });
    expect([badTools.status, badTools.json.error.code]).toEqual([422, 'INVALID_TOOLS']);
    expect(badTools.json.error.details.problems[0].path).toMatch(/^\/tools\/0/);

    const huge = await diff({ running: ' '.repeat(1024 * 1024), candidate: V2 });
    expect([huge.status, huge.json?.error.code]).toEqual([413, 'TOO_LARGE']);
  });
});
