// Rule sets over real HTTP on a fresh demo folder: every refusal naming the rules at fault, pins resolved
// with and without versions, runs over mixed results, a run that fails recording nothing, update to latest
// as a draft, archive and restore, and an agent deciding by its pinned policy version after an edit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOCUMENTS } from '../src/server/demo.ts';
import {
  agentKey,
  countRows,
  decisionRow,
  type LooseJson,
  okJson,
  patchRuleset,
  postEdit,
  startServer,
  type TestServer,
} from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const SUPPORT = 'rulesets/support.ruleset.json';
const POLICY = 'policies/refunds.policy.json';
const SHEET = 'sheets/support.rules.yaml';
const path = (id: string, rest = '') => `/v1/rulesets/${encodeURIComponent(id)}${rest}`;
const owner = () => s.key('owner');
const refundsBotKey = () => agentKey(s, 'refunds-bot');

const ok = okJson;
const create = (body: Record<string, unknown>, key = owner()) => s.call('POST', '/v1/rulesets', { key, body });
const patch = (id: string, body: Record<string, unknown>, key = owner()) => patchRuleset(s, id, body, key);
const validate = (id: string, body: Record<string, unknown>) => s.call('POST', path(id, '/validate'), { key: s.key('viewer'), body });
async function editDocument(id: string, content: string): Promise<number> {
  const json = await ok(postEdit(s, id, owner(), { content, reason: `test: ${id}` }), 201);
  return json.version.sequence;
}
async function setRuleStatus(id: string, status: string): Promise<void> {
  await ok(s.call('POST', `/v1/documents/${encodeURIComponent(id)}/status`, { key: owner(), body: { status } }));
}

/** The refunds policy with the auto-refund limit moved from 100 to 20: a policy edit the set does not follow until re-pinned. */
const REFUNDS_V2 = (DEMO_DOCUMENTS[POLICY] as string).replaceAll('"100"', '"20"');

describe('refusals, each naming the rules at fault', () => {
  const refused = async (pins: unknown[]) => {
    const json = await ok(create({ id: 'rulesets/refused.ruleset.json', name: 'Refused', pins }), 422);
    expect(json.error.code).toBe('RULESET_REFUSED');
    return json.error.details as { rules: string[]; problems: { code: string; path: string }[] };
  };

  it('refuses a set with no rules', async () => {
    const d = await refused([]);
    expect(d.problems.map((p) => p.code)).toEqual(['RULESET_EMPTY']);
    expect(d.rules).toEqual([]);
  });

  it('refuses a rule pinned twice', async () => {
    const d = await refused([{ rule_id: POLICY }, { rule_id: SHEET }, { rule_id: POLICY, version_id: 1 }]);
    expect(d.problems.map((p) => [p.code, p.path])).toEqual([['DUPLICATE_PIN', '/pins/2/rule_id']]);
    expect(d.rules).toEqual([POLICY]);
  });

  it('refuses a rule the member cannot see and a version that does not exist, naming both', async () => {
    const d = await refused([{ rule_id: 'policies/secret.policy.json' }, { rule_id: POLICY, version_id: 99 }]);
    expect(d.problems.map((p) => p.code)).toEqual(['RULE_NOT_VISIBLE', 'VERSION_NOT_FOUND']);
    expect(d.rules).toEqual(['policies/secret.policy.json', POLICY]);
  });

  it('refuses a disabled or an archived rule', async () => {
    await editDocument('colang/old.co', 'define flow read_order\n  refuse\n');
    await editDocument('colang/off.co', 'define flow read_order\n  refuse\n');
    await setRuleStatus('colang/old.co', 'archived');
    await setRuleStatus('colang/off.co', 'disabled');
    const d = await refused([{ rule_id: POLICY }, { rule_id: 'colang/old.co' }, { rule_id: 'colang/off.co' }]);
    expect(d.problems.map((p) => p.code)).toEqual(['RULE_NOT_PINNABLE', 'RULE_NOT_PINNABLE']);
    expect(d.rules).toEqual(['colang/old.co', 'colang/off.co']);
  });

  it('refuses more than 64 pins', async () => {
    const pins = Array.from({ length: 65 }, (_, i) => ({ rule_id: `colang/r${i}.co` }));
    const d = await refused(pins);
    expect(d.problems.map((p) => p.code)).toContain('RULESET_TOO_LARGE');
    expect(d.rules).toContain('colang/r64.co');
  });

  it('nothing refused was stored', async () => {
    expect((await s.ctx.store.history('rulesets/refused.ruleset.json')).length).toBe(0);
  });

  it('cannot make a set active while it pins a draft rule; test is allowed', async () => {
    await editDocument('colang/trial.co', 'define flow read_order\n  refuse\n');
    await setRuleStatus('colang/trial.co', 'draft');
    const id = 'rulesets/trial.ruleset.json';
    const created = await ok(
      create({ id, name: 'Trial', pins: [{ rule_id: POLICY, version_id: 1 }, { rule_id: 'colang/trial.co' }] }),
      201,
    );
    expect(created).toMatchObject({ status: 'draft', version_id: 1 });
    const active = await ok(patch(id, { status: 'active' }), 409);
    expect(active.error).toMatchObject({ code: 'RULESET_PINS_DRAFT', details: { rules: ['colang/trial.co'] } });
    expect((await ok(patch(id, { status: 'test' }))).status).toBe('test');
    await setRuleStatus('colang/trial.co', 'active');
    expect((await ok(patch(id, { status: 'active' }))).status).toBe('active');
  });

  it('takes status changes from owners and admins only; a developer may rename', async () => {
    const id = 'rulesets/trial.ruleset.json';
    expect((await patch(id, { status: 'test' }, s.key('developer'))).status).toBe(403);
    expect((await patch(id, { name: 'x' }, s.key('viewer'))).status).toBe(403);
    const renamed = await ok(patch(id, { name: 'Trial run', description: 'A trial' }, s.key('developer')));
    expect(renamed).toMatchObject({ name: 'Trial run', description: 'A trial', version_id: 1 });
    // Metadata changed without a new version.
    expect(renamed.versions).toHaveLength(1);
  });
});

describe('pins, versions and runs', () => {
  it("shows each pin at its version, with its rule's name, description and owner", async () => {
    const set = await ok(s.call('GET', path(SUPPORT), { key: s.key('viewer') }));
    expect(set).toMatchObject({ id: SUPPORT, version_id: 1, active_version: 1, draft: false, status: 'active', newer_pins: 0 });
    const rule = { running_version: 1, newer: false, status: 'active', owner: 'demo seed' };
    expect(set.pins).toEqual([
      { ...rule, rule_id: POLICY, version_id: 1, used_version: 1, kind: 'policy', name: 'refunds', description: null },
      {
        ...rule,
        rule_id: SHEET,
        version_id: 1,
        used_version: 1,
        kind: 'sheet',
        name: 'support',
        description: "support-bot's rules, as a sheet a person can read aloud.",
      },
    ]);
  });

  it("judges every rule and returns the set's verdict over mixed results, each rule with its version", async () => {
    const pass = await ok(validate(SUPPORT, { call: { tool: 'issue_refund', arguments: { amount: '50' } } }));
    expect(pass).toMatchObject({ ruleset: SUPPORT, version_id: 1, verdict: 'pass', failed: [], held: [] });
    expect(pass.results.map((r: LooseJson) => [r.rule_id, r.version_id, r.pinned, r.result])).toEqual([
      [POLICY, 1, true, 'pass'],
      [SHEET, 1, true, 'pass'],
    ]);
    // The set passes only if every rule passes: a rule holding the call for approval fails it.
    const held = await ok(validate(SUPPORT, { call: { tool: 'issue_refund', arguments: { amount: '500' } } }));
    expect(held).toMatchObject({ verdict: 'fail', failed: [POLICY], held: [POLICY] });
    expect(held.results[0]).toMatchObject({ result: 'hold', decision: 'require_approval' });
    // send_payout: the sheet confirms (holds), the policy denies.
    const mixed = await ok(validate(SUPPORT, { call: { tool: 'send_payout', arguments: { amount: '5' } } }));
    expect(mixed).toMatchObject({ verdict: 'fail', failed: [POLICY, SHEET], held: [SHEET] });
    const unknown = await ok(validate(SUPPORT, { call: { tool: 'no_such_tool', arguments: {} } }));
    expect(unknown).toMatchObject({ verdict: 'fail', failed: [POLICY, SHEET] });
  });

  it('a run that fails midway records nothing', async () => {
    const strict = await startServer({ dataDir: s.dataDir, ruleTimeoutMs: 0 });
    try {
      const before = await countRows(s, 'ruleset_runs');
      const res = await strict.call('POST', path(SUPPORT, '/validate'), {
        key: strict.key('viewer'),
        body: { call: { tool: 'issue_refund', arguments: { amount: '50' } } },
      });
      expect(res.status).toBe(503);
      expect(res.json.error).toMatchObject({ code: 'RULESET_RUN_FAILED', details: { reason: 'timed_out' } });
      expect(await countRows(s, 'ruleset_runs')).toBe(before);
    } finally {
      await strict.stop();
    }
  });

  it('flags a newer version of a pinned rule, and update to latest saves the next set version as a draft', async () => {
    const v2 = await editDocument(POLICY, REFUNDS_V2);
    expect(v2).toBe(2);
    const listed = await ok(s.call('GET', '/v1/rulesets', { key: s.key('viewer') }));
    const support = listed.rulesets.find((r: LooseJson) => r.id === SUPPORT);
    expect(support.pins[0]).toMatchObject({ rule_id: POLICY, version_id: 1, running_version: 2, newer: true });
    expect(support.newer_pins).toBe(1);
    const draft = await ok(s.call('POST', path(SUPPORT, '/update-to-latest'), { key: s.key('developer'), body: {} }));
    expect(draft).toMatchObject({ version_id: 2, active_version: 1, draft: true, status: 'active', newer_pins: 0 });
    expect(draft.pins[0]).toMatchObject({ rule_id: POLICY, version_id: 2 });
    expect(draft.versions.map((v: LooseJson) => [v.version_id, v.active, v.draft])).toEqual([
      [1, true, false],
      [2, false, true],
    ]);
    // Version 1 is still readable and runnable by version; the active set is unchanged.
    const old = await ok(validate(SUPPORT, { version_id: 1, call: { tool: 'issue_refund', arguments: { amount: '50' } } }));
    expect(old).toMatchObject({ version_id: 1, verdict: 'pass' });
    const next = await ok(validate(SUPPORT, { version_id: 2, call: { tool: 'issue_refund', arguments: { amount: '50' } } }));
    expect(next).toMatchObject({ version_id: 2, verdict: 'fail', held: [POLICY] });
    expect((await ok(s.call('POST', path(SUPPORT, '/update-to-latest'), { key: owner(), body: {} }), 409)).error.code).toBe('PINS_CURRENT');
  });

  it("decides refunds-bot's calls by the pinned policy version until the set's new version is activated", async () => {
    const refundsBot = (amount: string) =>
      s.call('POST', '/v1/agents/refunds-bot/calls', { key: refundsBotKey(), body: { tool: 'issue_refund', arguments: { amount } } });
    const supportBot = (amount: string) =>
      s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: { amount } } });
    // The policy's running version 2 holds 50; support-bot names the policy and follows it at once.
    expect((await ok(supportBot('50'))).decision).toBe('require_approval');
    // refunds-bot runs the set, which still pins version 1: 50 is allowed.
    const pinned = await ok(refundsBot('50'));
    expect(pinned).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
    expect(JSON.parse((await decisionRow(s, pinned.call_id)).versions)).toMatchObject({
      [SUPPORT]: 1,
      [POLICY]: 1,
    });
    // A developer cannot activate; the owner can, and the next call follows.
    expect((await patch(SUPPORT, { active_version: 2 }, s.key('developer'))).status).toBe(403);
    await ok(patch(SUPPORT, { active_version: 2 }));
    expect((await ok(refundsBot('50'))).decision).toBe('require_approval');
  });

  it('archives with a replacement, refuses runs with RULESET_ARCHIVED, shows recent runs, and restores', async () => {
    const before = await ok(s.call('GET', path(SUPPORT), { key: s.key('viewer') }));
    expect(before.runs_last_30_days).toBeGreaterThanOrEqual(6);
    await ok(create({ id: 'rulesets/support-next.ruleset.json', name: 'Support next', pins: [{ rule_id: POLICY }] }), 201);
    const archived = await ok(
      s.call('POST', path(SUPPORT, '/archive'), { key: owner(), body: { replaced_by: 'rulesets/support-next.ruleset.json' } }),
    );
    expect(archived).toMatchObject({ status: 'archived', replaced_by: 'rulesets/support-next.ruleset.json' });
    const refused = await ok(validate(SUPPORT, { call: { tool: 'issue_refund', arguments: { amount: '5' } } }), 409);
    expect(refused.error).toMatchObject({ code: 'RULESET_ARCHIVED', details: { replaced_by: 'rulesets/support-next.ruleset.json' } });
    const gate = await ok(
      s.call('POST', '/v1/agents/refunds-bot/calls', { key: refundsBotKey(), body: { tool: 'issue_refund', arguments: { amount: '5' } } }),
    );
    expect(gate).toMatchObject({ decision: 'deny', code: 'RULESET_ARCHIVED' });
    // Still readable, by version too.
    expect((await ok(s.call('GET', path(SUPPORT, '?version_id=1'), { key: s.key('viewer') }))).version_id).toBe(1);
    const restored = await ok(s.call('POST', path(SUPPORT, '/restore'), { key: owner(), body: {} }));
    expect(restored.status).toBe('active');
    expect(restored.replaced_by).toBeUndefined();
    expect((await ok(validate(SUPPORT, { call: { tool: 'issue_refund', arguments: { amount: '5' } } }))).verdict).toBe('pass');
  });

  it('answers bad input with a code, never a 500', async () => {
    expect((await ok(s.call('GET', path('rulesets/none.ruleset.json'), { key: s.key('viewer') }), 404)).error).toMatchObject({
      code: 'NOT_FOUND',
      details: { resource: 'ruleset' },
    });
    expect((await ok(s.call('GET', path(SUPPORT, '?version_id=9'), { key: s.key('viewer') }), 404)).error).toMatchObject({
      code: 'NOT_FOUND',
      details: { resource: 'version' },
    });
    expect((await ok(s.call('GET', path('policies/refunds.policy.json'), { key: s.key('viewer') }), 400)).error.code).toBe('INVALID_ID');
    expect((await ok(validate(SUPPORT, { call: { tool: 'x' } }), 400)).error.code).toBe('INVALID_BODY');
    expect((await ok(patch(SUPPORT, { replaced_by: 'rulesets/support-next.ruleset.json' }), 400)).error.code).toBe(
      'REPLACED_BY_NOT_ARCHIVED',
    );
    expect(
      (
        await ok(
          s.call('POST', `/v1/documents/${encodeURIComponent('agents/support-bot.agent.yaml')}/status`, {
            key: owner(),
            body: { status: 'draft' },
          }),
          400,
        )
      ).error.code,
    ).toBe('INVALID_ID');
  });

  it('a new text of the set through the documents editor is a draft version too, its pins checked against the store', async () => {
    const id = 'rulesets/trial.ruleset.json';
    const refused = await ok(
      postEdit(s, id, owner(), { content: JSON.stringify({ name: 'Trial', pins: [{ rule_id: 'colang/nope.co' }] }), reason: 'x' }),
      422,
    );
    expect(refused).toMatchObject({ status: 'refused', reasons: [expect.objectContaining({ code: 'RULE_NOT_VISIBLE' })] });
    const content = `${JSON.stringify({ name: 'Trial', pins: [{ rule_id: POLICY, version_id: 2 }] }, null, 2)}\n`;
    const held = await ok(postEdit(s, id, owner(), { content, reason: 'repin by hand' }), 201);
    expect(held.status).toBe('saved_not_running');
    const set = await ok(s.call('GET', path(id), { key: s.key('viewer') }));
    expect(set.versions.at(-1)).toMatchObject({ version_id: held.version.sequence, draft: true, active: false });
    expect(set.version_id).not.toBe(held.version.sequence);
  });

  it('the documents routes cannot make an active set run a version that pins a draft rule, nor revert it blindly', async () => {
    const id = 'rulesets/trial.ruleset.json';
    await setRuleStatus('colang/trial.co', 'draft');
    const pins = [{ rule_id: POLICY, version_id: 1 }, { rule_id: 'colang/trial.co' }];
    const draft = await ok(patch(id, { pins }));
    const docs = `/v1/documents/${encodeURIComponent(id)}`;
    const activate = await ok(s.call('POST', `${docs}/activate`, { key: owner(), body: { sequence: draft.version_id } }), 409);
    expect(activate.error).toMatchObject({ code: 'RULESET_PINS_DRAFT', details: { rules: ['colang/trial.co'] } });
    expect((await ok(s.call('POST', `${docs}/revert`, { key: owner(), body: {} }), 409)).error.code).toBe('RULESET_REVERT_ACTIVE');
    await setRuleStatus('colang/trial.co', 'active');
    expect((await ok(s.call('POST', `${docs}/activate`, { key: owner(), body: { sequence: draft.version_id } }))).version.sequence).toBe(
      draft.version_id,
    );
  });
});
