// The gate over real HTTP with the settings' observe windows and the agent's rule set: documents edited
// through POST /v1/documents/{id}/edits with the owner key, calls sent with the agent's key. Each edit is
// seen by the very next call (the loaded agent is cached while its documents' versions stand).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_WITH_SPENDING_LIMIT, DEMO_DOCUMENTS } from '../src/server/demo.ts';
import { countRows, decisionRow, patchRuleset, postEdit, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

const CALLS = '/v1/agents/support-bot/calls';
const AGENT = 'agents/support-bot.agent.yaml';
const RULESET = 'rulesets/support.ruleset.json';
const call = (body: unknown) => s.call('POST', CALLS, { key: s.key('agent'), body });
const count = (table: 'decisions' | 'approvals') => countRows(s, table);
const row = (callId: string) => decisionRow(s, callId);

/** Stores a new version of a document with the owner key and makes it the running one. */
async function edit(id: string, content: string): Promise<void> {
  const path = `/v1/documents/${encodeURIComponent(id)}`;
  const res = await postEdit(s, id, s.key('owner'), { content, reason: `test: ${id}` });
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  if (res.json.status !== 'applied') {
    const act = await s.call('POST', `${path}/activate`, { key: s.key('owner'), body: { sequence: res.json.version.sequence } });
    expect(act.status, JSON.stringify(act.json)).toBe(200);
  }
}

const day = 86_400_000;
function settings(extra = ''): string {
  return `approval_ttl_seconds: 86400\napproved_rulesets_only: false\n${extra}`;
}
function window(relax: 'approvals' | 'denials', name = 'launch'): string {
  const starts = new Date(Date.now() - day).toISOString();
  const ends = new Date(Date.now() + day).toISOString();
  return `observe_windows:\n  - { name: ${name}, starts: "${starts}", ends: "${ends}", relax: ${relax} }\n`;
}
function ruleset(over: Record<string, unknown>): string {
  const base = JSON.parse(DEMO_DOCUMENTS[RULESET] as string);
  return `${JSON.stringify({ ...base, ...over }, null, 2)}\n`;
}

describe('observe windows', () => {
  it('relaxes require_approval into allow inside an approvals window: recorded as allowed, no approval', async () => {
    await edit('settings.yaml', settings(window('approvals')));
    const approvals = await count('approvals');
    const r = await call({ tool: 'issue_refund', arguments: { amount: '500' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      decision: 'allow',
      rule: 'refund-approval',
      observed: { window: 'launch', would_have_been: 'require_approval' },
      explanation: { decision: 'allow', observed: { window: 'launch', would_have_been: 'require_approval' } },
    });
    expect(r.json.approval).toBeUndefined();
    expect(await count('approvals')).toBe(approvals);
    expect((await row(r.json.call_id)).decision).toBe('allow');
    // Denials stay denied in an approvals window.
    const over = await call({ tool: 'issue_refund', arguments: { amount: '2000' } });
    expect(over.json).toMatchObject({ decision: 'deny', rule: 'refund-over-limit' });
    expect(over.json.observed).toBeUndefined();
  });

  it('relaxes policy and rulebook denials inside a denials window, never INVALID_AMOUNT or the delegation', async () => {
    await edit('settings.yaml', settings(window('denials', 'shadow')));
    await edit('agents/support-bot.agent.yaml', AGENT_WITH_SPENDING_LIMIT);
    const over = await call({ tool: 'issue_refund', arguments: { amount: '2000' } });
    expect(over.json).toMatchObject({ decision: 'allow', observed: { window: 'shadow', would_have_been: 'deny' } });
    expect((await row(over.json.call_id)).decision).toBe('allow');
    const never = await call({ tool: 'export_customers', arguments: {} });
    // The delegation's spending limit cannot price a tool with no amount: a hard limit, never relaxed.
    expect(never.json).toMatchObject({ decision: 'deny', code: 'DELEGATION_SPENDING_LIMIT' });
    expect(never.json.observed).toBeUndefined();
    expect((await call({ tool: 'issue_refund', arguments: { amount: '-5' } })).json).toMatchObject({
      decision: 'deny',
      code: 'INVALID_AMOUNT',
    });
    expect((await call({ tool: 'issue_refund', arguments: { amount: '5000.01' } })).json).toMatchObject({
      decision: 'deny',
      code: 'DELEGATION_SPENDING_LIMIT',
    });
    expect((await call({ tool: 'nope', arguments: {} })).json).toMatchObject({ decision: 'deny', code: 'TOOL_UNKNOWN' });
    await edit('agents/support-bot.agent.yaml', DEMO_DOCUMENTS['agents/support-bot.agent.yaml'] as string);
  });

  it('stops relaxing as soon as the window is edited away', async () => {
    await edit('settings.yaml', settings());
    const r = await call({ tool: 'issue_refund', arguments: { amount: '500' } });
    expect(r.json).toMatchObject({ decision: 'require_approval' });
    expect(r.json.observed).toBeUndefined();
    expect(r.json.approval).toBeDefined();
  });
});

/** Changes the set's lifecycle (status, replacement, active version) with the owner key: no new version. */
async function patchSet(body: Record<string, unknown>, id = RULESET): Promise<void> {
  const res = await patchRuleset(s, id, body);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

/** Saves new pins (the next version, a draft) and activates that version. */
async function repin(pins: unknown[]): Promise<number> {
  const res = await patchRuleset(s, RULESET, { pins });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  expect(res.json.draft).toBe(true);
  await patchSet({ active_version: res.json.version_id });
  return res.json.version_id;
}

describe('rule sets', () => {
  it("runs the agent's active rule set: its pinned policy decides", async () => {
    await edit(AGENT, (DEMO_DOCUMENTS[AGENT] as string).replace('policy: policies/refunds.policy.json', `ruleset: ${RULESET}`));
    const r = await call({ tool: 'issue_refund', arguments: { amount: '500' } });
    expect(r.json).toMatchObject({ decision: 'require_approval', rule: 'refund-approval' });
    expect(JSON.parse((await row(r.json.call_id)).versions as string)).toMatchObject({ [RULESET]: 1, 'policies/refunds.policy.json': 1 });
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json.decision).toBe('allow');
  });

  it('refuses a draft set with RULESET_NOT_ACTIVE, a disabled one with RULESET_DISABLED, and runs a test set', async () => {
    await patchSet({ status: 'draft' });
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'deny',
      code: 'RULESET_NOT_ACTIVE',
    });
    await patchSet({ status: 'disabled' });
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'deny',
      code: 'RULESET_DISABLED',
    });
    await patchSet({ status: 'test' });
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json.decision).toBe('allow');
  });

  it('refuses an archived set with RULESET_ARCHIVED, naming its replacement', async () => {
    await edit('rulesets/support-v2.ruleset.json', ruleset({ name: 'Support v2' }));
    await patchSet({ status: 'archived', replaced_by: 'rulesets/support-v2.ruleset.json' });
    const r = await call({ tool: 'issue_refund', arguments: { amount: '50' } });
    expect(r.json).toMatchObject({
      decision: 'deny',
      code: 'RULESET_ARCHIVED',
      explanation: { replaced_by: 'rulesets/support-v2.ruleset.json' },
    });
    expect((await row(r.json.call_id)).decision).toBe('deny');
    // An observe window never relaxes it.
    await edit('settings.yaml', settings(window('denials')));
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'deny',
      code: 'RULESET_ARCHIVED',
    });
    await edit('settings.yaml', settings());
    await patchSet({ status: 'active' });
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json.decision).toBe('allow');
  });

  it('refuses a set not on the approved list when settings allow only approved sets, by version', async () => {
    await edit(
      'settings.yaml',
      'approval_ttl_seconds: 86400\napproved_rulesets_only: true\napproved_rulesets: [rulesets/support-v2.ruleset.json@1]\n',
    );
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'deny',
      code: 'RULESET_NOT_APPROVED',
    });
    await edit('settings.yaml', `approval_ttl_seconds: 86400\napproved_rulesets_only: true\napproved_rulesets: [${RULESET}@1]\n`);
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json.decision).toBe('allow');
    // Version 2 runs now: approved is version 1 only, so the agent is refused until version 2 is approved.
    await repin([{ rule_id: 'policies/refunds.policy.json', version_id: 1 }]);
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'deny',
      code: 'RULESET_NOT_APPROVED',
    });
    await edit(
      'settings.yaml',
      `approval_ttl_seconds: 86400\napproved_rulesets_only: true\napproved_rulesets: [${RULESET}@1, ${RULESET}@2]\n`,
    );
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json.decision).toBe('allow');
    await edit('settings.yaml', settings());
  });

  it('applies pinned sheets: a refusal anywhere wins, then a confirmation; a pin sent without a version keeps the one it took', async () => {
    await edit('sheets/refunds.rules.yaml', 'rules:\n  - action: issue_refund\n    requires_confirmation: true\n');
    await repin([{ rule_id: 'policies/refunds.policy.json', version_id: 1 }, { rule_id: 'sheets/refunds.rules.yaml' }]);
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'confirm',
      code: 'CONFIRMATION_REQUIRED',
    });
    const confirmed = await call({ tool: 'issue_refund', arguments: { amount: '50' }, confirmed: true });
    expect(confirmed.json.decision).toBe('allow');
    expect(JSON.parse((await row(confirmed.json.call_id)).versions as string)).toMatchObject({ 'sheets/refunds.rules.yaml': 1 });
    // A new running version of the sheet changes nothing for the set: it pins version 1.
    await edit('sheets/refunds.rules.yaml', 'rules:\n  - action: issue_refund\n    never: true\n');
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json.decision).toBe('confirm');
    // Re-pinned at version 2, the sheet refuses.
    await repin([
      { rule_id: 'policies/refunds.policy.json', version_id: 1 },
      { rule_id: 'sheets/refunds.rules.yaml', version_id: 2 },
    ]);
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' }, confirmed: true })).json).toMatchObject({
      decision: 'deny',
      code: 'NEVER',
    });
  });

  it('applies a pinned Colang document', async () => {
    await edit('colang/refunds.co', 'define flow issue_refund\n  refuse\n');
    await repin([{ rule_id: 'policies/refunds.policy.json', version_id: 1 }, { rule_id: 'colang/refunds.co' }]);
    const refused = await call({ tool: 'issue_refund', arguments: { amount: '50' } });
    expect(refused.json).toMatchObject({ decision: 'deny', rule: 'issue_refund' });
    // A denials window relaxes the rulebook's refusal, and the answer says so.
    await edit('settings.yaml', settings(window('denials', 'shadow')));
    const relaxed = await call({ tool: 'issue_refund', arguments: { amount: '50' } });
    expect(relaxed.json).toMatchObject({ decision: 'allow', observed: { window: 'shadow', would_have_been: 'deny' } });
    expect((await row(relaxed.json.call_id)).decision).toBe('allow');
    await edit('settings.yaml', settings());
  });

  it('refuses the set while a pinned rule is disabled, and runs it again once the rule is active', async () => {
    const status = (value: string) =>
      s.call('POST', `/v1/documents/${encodeURIComponent('colang/refunds.co')}/status`, { key: s.key('owner'), body: { status: value } });
    expect((await status('disabled')).status).toBe(200);
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'deny',
      code: 'RULESET_RULE_UNUSABLE',
    });
    expect((await status('active')).status).toBe(200);
    expect((await call({ tool: 'issue_refund', arguments: { amount: '50' } })).json).toMatchObject({
      decision: 'deny',
      rule: 'issue_refund',
    });
  });
});
