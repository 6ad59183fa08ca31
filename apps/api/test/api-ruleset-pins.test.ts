// Rule sets over real HTTP on a fresh demo folder: a pin sent without a version keeps the version it took when
// the set version was made, so no sequence of rule edits changes what a set decides until someone moves it; a
// version stored with an unversioned pin runs nothing; every problem of every pin is listed once; the list
// shows active sets unless asked for others; the approved list names set versions.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOCUMENTS } from '../src/server/demo.ts';
import { lifecycleOf } from '../src/server/rulesets/lifecycle.ts';
import { agentKey, type LooseJson, okJson, patchRuleset, postEdit, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const POLICY = 'policies/refunds.policy.json';
const SHEET = 'sheets/support.rules.yaml';
const path = (id: string, rest = '') => `/v1/rulesets/${encodeURIComponent(id)}${rest}`;
const owner = () => s.key('owner');
const refundsBotKey = () => agentKey(s, 'refunds-bot');

const ok = okJson;
const create = (body: Record<string, unknown>) => s.call('POST', '/v1/rulesets', { key: owner(), body });
const patch = (id: string, body: Record<string, unknown>) => patchRuleset(s, id, body);
const getSet = (id: string, query = '') => ok(s.call('GET', path(id, query), { key: s.key('viewer') }));
const validate = (id: string, call: Record<string, unknown>) =>
  ok(s.call('POST', path(id, '/validate'), { key: s.key('viewer'), body: { call } }));
const editDocument = (id: string, content: string) => postEdit(s, id, owner(), { content, reason: `test: ${id}` });
async function edit(id: string, content: string): Promise<number> {
  const json = await ok(editDocument(id, content), 201);
  return json.version.sequence;
}
const refundsBot = (amount: string) =>
  ok(s.call('POST', '/v1/agents/refunds-bot/calls', { key: refundsBotKey(), body: { tool: 'issue_refund', arguments: { amount } } }));

/** Runs `body` with refunds-bot naming `set`, then points it back at the demo's set whatever happened. */
async function withRefundsBotOn(set: string, body: () => Promise<void>): Promise<void> {
  const agent = 'agents/refunds-bot.agent.yaml';
  const demo = DEMO_DOCUMENTS[agent] as string;
  await edit(agent, demo.replace('rulesets/support.ruleset.json', set));
  try {
    await body();
  } finally {
    await edit(agent, demo);
  }
}

/** The refunds policy with its automatic refund limit moved from 100 to `limit`. */
const refundsWithLimit = (limit: string) => (DEMO_DOCUMENTS[POLICY] as string).replaceAll('"100"', `"${limit}"`);

describe('a pin sent without a version keeps the version it took', () => {
  const ID = 'rulesets/follow.ruleset.json';

  it('is pinned at the running version when the set version is made, and says which', async () => {
    const created = await ok(create({ id: ID, name: 'Follow', pins: [{ rule_id: POLICY }, { rule_id: SHEET }] }), 201);
    expect(created.pins.map((p: LooseJson) => [p.rule_id, p.version_id, p.used_version])).toEqual([
      [POLICY, 1, 1],
      [SHEET, 1, 1],
    ]);
    const stored = await ok(s.call('GET', `/v1/documents/${encodeURIComponent(ID)}`, { key: s.key('viewer') }));
    expect(JSON.parse(stored.text).pins).toEqual([
      { rule_id: POLICY, version_id: 1 },
      { rule_id: SHEET, version_id: 1 },
    ]);
    await ok(patch(ID, { status: 'active' }));
  });

  it('a new running version of a rule changes nothing for the set; update to latest moves it, as a draft', async () => {
    const before = await validate(ID, { tool: 'issue_refund', arguments: { amount: '50' } });
    expect(before).toMatchObject({ verdict: 'pass', version_id: 1 });
    const v2 = await edit(POLICY, refundsWithLimit('20'));
    const after = await validate(ID, { tool: 'issue_refund', arguments: { amount: '50' } });
    expect(after).toEqual(before);
    const set = await getSet(ID);
    expect(set.pins[0]).toMatchObject({ rule_id: POLICY, version_id: 1, used_version: 1, running_version: v2, newer: true });
    const draft = await ok(s.call('POST', path(ID, '/update-to-latest'), { key: owner(), body: {} }));
    expect(draft).toMatchObject({ version_id: 2, draft: true });
    expect(draft.pins[0]).toMatchObject({ version_id: v2, used_version: v2 });
    // Put the policy back for what follows (the set keeps its pins).
    await edit(POLICY, DEMO_DOCUMENTS[POLICY] as string);
  });

  it('a pin written without a version through the documents editor is pinned too, and the outcome says so', async () => {
    const id = 'rulesets/typed.ruleset.json';
    const res = await ok(editDocument(id, JSON.stringify({ name: 'Typed', pins: [{ rule_id: SHEET }] })), 201);
    expect(res.reasons.map((r: { message: string }) => r.message)).toContain(
      `Pins without a version are pinned at their rules' running versions: ${SHEET}@1.`,
    );
    const stored = await ok(s.call('GET', `/v1/documents/${encodeURIComponent(id)}`, { key: s.key('viewer') }));
    expect(JSON.parse(stored.text).pins).toEqual([{ rule_id: SHEET, version_id: 1 }]);
  });

  it('no sequence of rule edits that leaves the set alone changes what the set or its agent decides', async () => {
    const set = 'rulesets/steady.ruleset.json';
    const colang = 'colang/steady.co';
    await edit(colang, 'define flow read_order\n  refuse\n');
    await ok(create({ id: set, name: 'Steady', pins: [{ rule_id: POLICY }, { rule_id: SHEET }, { rule_id: colang }] }), 201);
    await ok(patch(set, { status: 'active' }));
    const calls = [
      { tool: 'issue_refund', arguments: { amount: '50' } },
      { tool: 'issue_refund', arguments: { amount: '500' } },
      { tool: 'send_payout', arguments: { amount: '5' } },
      { tool: 'read_order', arguments: {} },
      { tool: 'export_customers', arguments: {} },
    ];
    const decide = async () => ({
      runs: await Promise.all(calls.map((c) => validate(set, c))),
      agent: await Promise.all(['50', '500', '5000'].map(async (a) => (await refundsBot(a)).decision)),
    });
    await withRefundsBotOn(set, async () => {
      const baseline = await decide();
      expect(baseline.runs.map((r) => r.verdict)).toEqual(['pass', 'fail', 'fail', 'fail', 'fail']);
      const anEdit = fc.oneof(
        fc.constantFrom('5', '20', '100', '900').map((limit) => [POLICY, refundsWithLimit(limit)] as const),
        fc
          .constantFrom('never: true', 'requires_confirmation: true', 'at_most: 1')
          .map((rule) => [SHEET, `rules:\n  - action: issue_refund\n    ${rule}\n`] as const),
        fc.constantFrom('read_order', 'issue_refund', 'send_payout').map((flow) => [colang, `define flow ${flow}\n  refuse\n`] as const),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(anEdit, { minLength: 1, maxLength: 4 }), async (edits) => {
          for (const [id, text] of edits) await edit(id, text);
          expect(await decide()).toEqual(baseline);
        }),
        { numRuns: 12 },
      );
    });
    await edit(POLICY, DEMO_DOCUMENTS[POLICY] as string);
    await edit(SHEET, DEMO_DOCUMENTS[SHEET] as string);
  });

  it('a version stored with a pin that names no version runs nothing until updated to latest, at the gate too', async () => {
    const id = 'rulesets/legacy.ruleset.json';
    // As a data folder from before pins were resolved holds it: written straight into the store.
    await s.ctx.store.save({
      id,
      text: JSON.stringify({ name: 'Legacy', pins: [{ rule_id: POLICY, version_id: 1 }, { rule_id: SHEET }] }),
      author: { kind: 'system', label: 'before' },
      reason: 'an old version',
    });
    // It cannot be made to run now; a set made active before keeps its status, as an old data folder holds it.
    const refusedActive = await ok(patch(id, { status: 'active' }), 409);
    expect(refusedActive.error).toMatchObject({ code: 'RULESET_PIN_UNRESOLVED', details: { rules: [SHEET] } });
    await lifecycleOf(s.ctx.store).update(id, { status: 'active' }, 'before', new Date());
    const set = await getSet(id);
    expect(set).toMatchObject({ status: 'active', active_version: 1 });
    expect(set.pins[1]).toMatchObject({ rule_id: SHEET, version_id: null, used_version: null, newer: true });
    const refused = await ok(
      s.call('POST', path(id, '/validate'), { key: s.key('viewer'), body: { call: { tool: 'issue_refund', arguments: { amount: '5' } } } }),
      409,
    );
    expect(refused.error).toMatchObject({ code: 'RULESET_PIN_UNRESOLVED', details: { rules: [SHEET] } });
    await withRefundsBotOn(id, async () => {
      const gate = await s.call('POST', '/v1/agents/refunds-bot/calls', {
        key: refundsBotKey(),
        body: { tool: 'issue_refund', arguments: { amount: '5' } },
      });
      // The agent cannot load: its call is refused, never judged by whichever sheet version runs.
      expect(gate.status).toBe(409);
      expect(gate.json.error).toMatchObject({ code: 'AGENT_NOT_LOADABLE', details: { rules: [SHEET] } });
      expect(gate.json.error.message).toContain(`pins ${SHEET} without a version`);
      const moved = await ok(s.call('POST', path(id, '/update-to-latest'), { key: owner(), body: { rule_ids: [SHEET] } }));
      const running = moved.pins[1].running_version;
      expect(moved.pins[1]).toMatchObject({ rule_id: SHEET, version_id: running, used_version: running, newer: false });
      await ok(patch(id, { active_version: moved.version_id }));
      expect((await refundsBot('5')).decision).toBe('allow');
      // The old version cannot be made to run again, by either route.
      expect((await ok(patch(id, { active_version: 1 }), 409)).error.code).toBe('RULESET_PIN_UNRESOLVED');
      const activate = s.call('POST', `/v1/documents/${encodeURIComponent(id)}/activate`, { key: owner(), body: { sequence: 1 } });
      expect((await ok(activate, 409)).error.code).toBe('RULESET_PIN_UNRESOLVED');
      expect((await getSet(id)).active_version).toBe(moved.version_id);
    });
  });
});

describe('every problem of every pin, once', () => {
  const refusal = async (pins: unknown[]) => {
    const json = await ok(create({ id: 'rulesets/refused.ruleset.json', name: 'Refused', pins }), 422);
    const details = json.error.details as { rules: string[]; problems: { code: string; path: string }[] };
    return { problems: details.problems.map((p) => [p.code, p.path]), rules: details.rules };
  };

  it('a rule at a missing version and pinned again: the version, then the duplicate', async () => {
    expect(await refusal([{ rule_id: POLICY, version_id: 999 }, { rule_id: POLICY }])).toEqual({
      problems: [
        ['VERSION_NOT_FOUND', '/pins/0/version_id'],
        ['DUPLICATE_PIN', '/pins/1/rule_id'],
      ],
      rules: [POLICY],
    });
  });

  it('a rule the member cannot see, pinned twice: once not visible, then the duplicate', async () => {
    expect(await refusal([{ rule_id: 'colang/nope.co' }, { rule_id: 'colang/nope.co' }])).toEqual({
      problems: [
        ['RULE_NOT_VISIBLE', '/pins/0/rule_id'],
        ['DUPLICATE_PIN', '/pins/1/rule_id'],
      ],
      rules: ['colang/nope.co'],
    });
  });
});

describe('what a set shows', () => {
  it("shows each pin's rule with its name, description and owner", async () => {
    const set = await getSet('rulesets/support.ruleset.json');
    expect(set.pins.map((p: LooseJson) => [p.rule_id, p.name, p.description, p.owner])).toEqual([
      [POLICY, 'refunds', null, 'demo seed'],
      [SHEET, 'support', "support-bot's rules, as a sheet a person can read aloud.", 'demo seed'],
    ]);
  });

  it('lists active sets; drafts, archived sets and the rest when asked by status', async () => {
    await ok(create({ id: 'rulesets/drafted.ruleset.json', name: 'Drafted', pins: [{ rule_id: POLICY }] }), 201);
    await ok(create({ id: 'rulesets/old.ruleset.json', name: 'Old', pins: [{ rule_id: POLICY }] }), 201);
    await ok(s.call('POST', path('rulesets/old.ruleset.json', '/archive'), { key: owner(), body: {} }));
    const ids = async (query = '') =>
      (await ok(s.call('GET', `/v1/rulesets${query}`, { key: s.key('viewer') }))).rulesets.map((r: LooseJson) => r.id);
    const active = await ids();
    expect(active).toContain('rulesets/support.ruleset.json');
    expect(active).not.toContain('rulesets/drafted.ruleset.json');
    expect(active).not.toContain('rulesets/old.ruleset.json');
    expect(await ids('?status=draft')).toContain('rulesets/drafted.ruleset.json');
    expect(await ids('?status=draft')).not.toContain('rulesets/support.ruleset.json');
    expect(await ids('?status=archived')).toEqual(['rulesets/old.ruleset.json']);
    const all = await ids('?status=all');
    for (const id of ['rulesets/support.ruleset.json', 'rulesets/drafted.ruleset.json', 'rulesets/old.ruleset.json']) {
      expect(all).toContain(id);
    }
    const bad = await ok(s.call('GET', '/v1/rulesets?status=gone', { key: s.key('viewer') }), 400);
    expect(bad.error.code).toBe('INVALID_QUERY');
  });

  it('gives one pass or fail: a rule holding the call for approval fails the set, named among the failed and held', async () => {
    const run = await validate('rulesets/support.ruleset.json', { tool: 'issue_refund', arguments: { amount: '500' } });
    expect(run).toMatchObject({ verdict: 'fail', failed: [POLICY], held: [POLICY] });
  });
});

describe('the approved list names set versions', () => {
  const SUPPORT = 'rulesets/support.ruleset.json';
  const settings = (approved: string) => `approval_ttl_seconds: 86400\napproved_rulesets_only: true\napproved_rulesets: [${approved}]\n`;
  const refusedWith = async (approved: string) => {
    const json = await ok(editDocument('settings.yaml', settings(approved)), 422);
    expect(json.status).toBe('refused');
    return (json.reasons as { code: string; message: string }[]).map((r) => `${r.code}: ${r.message}`);
  };

  it('refuses a set without a version, a version that does not exist and a set that does not', async () => {
    expect(await refusedWith(SUPPORT)).toEqual([expect.stringContaining('VERSION_REQUIRED')]);
    expect(await refusedWith(`${SUPPORT}@9`)).toEqual([expect.stringContaining('REFERENCE_NOT_FOUND')]);
    expect(await refusedWith('rulesets/none.ruleset.json@1')).toEqual([expect.stringContaining('REFERENCE_NOT_FOUND')]);
    expect((await ok(editDocument('settings.yaml', settings(`${SUPPORT}@1`)), 201)).status).toBe('applied');
    expect(await refundsBot('5')).toMatchObject({ decision: 'allow' });
  });

  it('a new version of an approved set does not run until that version is approved', async () => {
    const draft = await ok(patch(SUPPORT, { pins: [{ rule_id: POLICY, version_id: 1 }] }));
    await ok(patch(SUPPORT, { active_version: draft.version_id }));
    expect(await refundsBot('5')).toMatchObject({ decision: 'deny', code: 'RULESET_NOT_APPROVED' });
    await ok(editDocument('settings.yaml', settings(`${SUPPORT}@1, ${SUPPORT}@${draft.version_id}`)), 201);
    expect((await refundsBot('5')).decision).toBe('allow');
  });

  it('settings stored with a bare id still load, and the bare id approves no version: failing closed', async () => {
    await s.ctx.store.save({ id: 'settings.yaml', text: settings(SUPPORT), author: { kind: 'system', label: 'before' }, reason: 'old' });
    expect(await refundsBot('5')).toMatchObject({ decision: 'deny', code: 'RULESET_NOT_APPROVED' });
    await ok(editDocument('settings.yaml', 'approval_ttl_seconds: 86400\napproved_rulesets_only: false\n'), 201);
  });
});
