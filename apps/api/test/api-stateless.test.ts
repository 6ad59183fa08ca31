// The stateless routes over real HTTP: compile, validate, evaluate, rules check, templates; auth, grants
// and bad bodies answered 4xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUNDS_POLICY_TEXT, SHOP_CATALOGUE, SHOP_SHEET, UNSUPPORTED_SHEET } from './rules-fixtures.ts';
import { startServer, type TestServer } from './server-harness.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const REFUNDS = JSON.parse(REFUNDS_POLICY_TEXT);
const REFUND_TOOL = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };

function post(path: string, body: unknown, who: Parameters<TestServer['key']>[0] = 'developer') {
  return server.call('POST', path, { key: server.key(who), body });
}

describe('POST /v1/rule-sheets/compile', () => {
  it('compiles a sheet with a catalogue: colang, rulebook, overlay, lints; keeps nothing', async () => {
    const before = await server.ctx.store.list();
    const r = await post('/v1/rule-sheets/compile', { sheet: SHOP_SHEET, catalogue: SHOP_CATALOGUE });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['colang', 'lints', 'overlay', 'rulebook', 'source_map']);
    expect(r.json.colang).toContain('define flow refund_card');
    expect(r.json.rulebook.format).toBe('tollgate/rulebook@1');
    expect(r.json.lints.map((l: { code: string }) => l.code)).toEqual(['write_ungoverned']);
    expect(await server.ctx.store.list()).toEqual(before);
  });

  it('compiles Colang (colang null in the answer) and a JSON catalogue', async () => {
    const sheet = await post('/v1/rule-sheets/compile', { sheet: SHOP_SHEET });
    const colang = await post('/v1/rule-sheets/compile', {
      colang: sheet.json.colang,
      catalogue: '{"tools": []}',
      catalogue_format: 'json',
    });
    expect(colang.status).toBe(200);
    expect(colang.json.colang).toBeNull();
    expect(colang.json.rulebook).toEqual(sheet.json.rulebook);
  });

  it('answers 422 rule_sheet_unsupported with each problem’s line, message and code', async () => {
    const r = await post('/v1/rule-sheets/compile', { sheet: UNSUPPORTED_SHEET });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('rule_sheet_unsupported');
    expect(r.json.error.details.problems).toEqual([
      expect.objectContaining({ line: 4, code: 'rule_sheet_unsupported', message: expect.any(String) }),
    ]);
  });

  it('answers 422 INVALID_CATALOGUE for a catalogue that does not load', async () => {
    const r = await post('/v1/rule-sheets/compile', { sheet: SHOP_SHEET, catalogue: 'tools:\n  - name: x\n    kind: maybe\n' });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('INVALID_CATALOGUE');
    expect(r.json.error.details.problems.length).toBeGreaterThan(0);
  });

  it('needs the catalogue grant: the viewer and approver get 403 GRANT_REQUIRED; agents MEMBER_REQUIRED', async () => {
    for (const who of ['viewer', 'approver'] as const) {
      const r = await post('/v1/rule-sheets/compile', { sheet: SHOP_SHEET }, who);
      expect(r.status).toBe(403);
      expect(r.json.error.code).toBe('GRANT_REQUIRED');
    }
    const agent = await post('/v1/rule-sheets/compile', { sheet: SHOP_SHEET }, 'agent');
    expect(agent.status).toBe(403);
    expect(agent.json.error.code).toBe('MEMBER_REQUIRED');
  });

  it.each([
    ['both sheet and colang', { sheet: SHOP_SHEET, colang: 'define flow x\n  refuse\n' }],
    ['neither', {}],
    ['an unknown member', { sheet: SHOP_SHEET, kind: 'sheet' }],
    ['a wrong type', { sheet: ['rules:'] }],
    ['a wrong catalogue format', { sheet: SHOP_SHEET, catalogue: '', catalogue_format: 'toml' }],
  ])('answers 400 INVALID_BODY for %s', async (_name, body) => {
    const r = await post('/v1/rule-sheets/compile', body);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('INVALID_BODY');
  });

  it('answers 400 INVALID_JSON for a body that is not JSON, 415 for another media type, 401 without a key or with a wrong one', async () => {
    const notJson = await server.call('POST', '/v1/rule-sheets/compile', {
      key: server.key('developer'),
      raw: '{"sheet":',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect(notJson.json.error.code).toBe('INVALID_JSON');
    expect(notJson.json.error.details).toEqual({ line: 1, column: 10 });
    const plain = await server.call('POST', '/v1/rule-sheets/compile', {
      key: server.key('developer'),
      raw: 'rules: []',
      headers: { 'content-type': 'text/plain' },
    });
    expect(plain.status).toBe(415);
    expect((await server.call('POST', '/v1/rule-sheets/compile', { body: { sheet: SHOP_SHEET } })).status).toBe(401);
    const wrong = await server.call('POST', '/v1/rule-sheets/compile', { key: 'tg_nope', body: { sheet: SHOP_SHEET } });
    expect(wrong.status).toBe(401);
    expect(wrong.json.error.code).toBe('INVALID_KEY');
  });
});

describe('POST /v1/policies/validate', () => {
  it('validates the refunds policy: valid, revision 1; tools given, rules matching none are warned of', async () => {
    const plain = await post('/v1/policies/validate', { document: REFUNDS }, 'viewer');
    expect(plain.status).toBe(200);
    expect(plain.json).toEqual({ valid: true, revision: 1, errors: [], warnings: [] });
    const r = await post('/v1/policies/validate', { document: REFUNDS, tools: [REFUND_TOOL] }, 'viewer');
    expect(r.json.valid).toBe(true);
    expect(r.json.warnings.map((w: { code: string; path: string }) => `${w.code} ${w.path}`)).toEqual([
      'RULE_MATCHES_NO_TOOL /rules/0/actions',
      'RULE_MATCHES_NO_TOOL /rules/4/actions',
    ]);
  });

  it('reports errors with codes and paths', async () => {
    const r = await post('/v1/policies/validate', { document: { schema: 'tollgate/policy@1', default: 'allow', rules: [] } });
    expect(r.status).toBe(200);
    expect(r.json.valid).toBe(false);
    expect(r.json.errors).toEqual([expect.objectContaining({ code: 'PERMISSIVE_DEFAULT', path: '/default' })]);
  });

  it('answers 422 INVALID_MEMBERS and INVALID_TOOLS, 400 for a document that is not an object', async () => {
    const members = await post('/v1/policies/validate', { document: REFUNDS, members: [{ id: 'x' }] });
    expect(members.status).toBe(422);
    expect(members.json.error.code).toBe('INVALID_MEMBERS');
    const tools = await post('/v1/policies/validate', { document: REFUNDS, tools: [{ name: 'x' }] });
    expect(tools.status).toBe(422);
    expect(tools.json.error.code).toBe('INVALID_TOOLS');
    const list = await post('/v1/policies/validate', { document: [] });
    expect(list.status).toBe(400);
    expect(list.json.error.code).toBe('INVALID_BODY');
  });
});

describe('POST /v1/policies/evaluate', () => {
  it('holds a 500 USD refund for approval and allows 50', async () => {
    const held = await post('/v1/policies/evaluate', { document: REFUNDS, tool: REFUND_TOOL, arguments: { amount: '500' } });
    expect(held.status).toBe(200);
    expect(held.json).toMatchObject({ decision: 'require_approval', rule: 'refund-approval', approvers: null });
    expect(held.json.approval.ttl_seconds).toBe(14400);
    expect(held.json.explanation.summary).toBeTypeOf('string');
    const allowed = await post('/v1/policies/evaluate', { document: REFUNDS, tool: REFUND_TOOL, arguments: { amount: '50' } });
    expect(allowed.json).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
  });

  it('resolves approvers from the members given', async () => {
    const members = [{ id: '00000000-0000-4000-8000-000000000001', role: 'approver', signing: true }];
    const r = await post('/v1/policies/evaluate', { document: REFUNDS, tool: REFUND_TOOL, arguments: { amount: '500' }, members });
    expect(r.status).toBe(200);
    expect(r.json.approvers).toEqual([members[0]?.id]);
  });

  it('answers 422 INVALID_POLICY for an invalid document and INVALID_TOOL for a bad tool', async () => {
    const bad = await post('/v1/policies/evaluate', { document: { schema: 'nope' }, tool: REFUND_TOOL, arguments: {} });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe('INVALID_POLICY');
    expect(bad.json.error.details.errors.length).toBeGreaterThan(0);
    const tool = await post('/v1/policies/evaluate', { document: REFUNDS, tool: { name: 'x' }, arguments: {} });
    expect(tool.status).toBe(422);
    expect(tool.json.error.code).toBe('INVALID_TOOL');
    const missing = await post('/v1/policies/evaluate', { document: REFUNDS, tool: REFUND_TOOL });
    expect(missing.status).toBe(400);
  });
});

describe('POST /v1/rules/check', () => {
  it('allows, refuses and asks for confirmation as the sheet says', async () => {
    const rules = { sheet: SHOP_SHEET };
    const small = await post('/v1/rules/check', {
      rules,
      catalogue: SHOP_CATALOGUE,
      call: { tool: 'refund_card', arguments: { amount: 50 } },
    });
    expect(small.status).toBe(200);
    expect(small.json).toEqual({ verdict: 'allow', rule: null, reason: null });
    const big = await post('/v1/rules/check', {
      rules,
      catalogue: SHOP_CATALOGUE,
      call: { tool: 'refund_card', arguments: { amount: 500 } },
    });
    expect(big.json).toMatchObject({ verdict: 'refuse', rule: 'refund_card', code: 'REQUIREMENT_UNMET' });
    const approved = await post('/v1/rules/check', {
      rules,
      catalogue: SHOP_CATALOGUE,
      call: { tool: 'refund_card', arguments: { amount: 500 }, contexts: { supervisor_approved: true } },
    });
    expect(approved.json.verdict).toBe('allow');
    const charge = await post('/v1/rules/check', { rules, catalogue: SHOP_CATALOGUE, call: { tool: 'charge_card', arguments: {} } });
    expect(charge.json).toMatchObject({ verdict: 'confirm', confirmation: 'Confirm the call to charge_card?' });
    const confirmed = await post('/v1/rules/check', {
      rules,
      catalogue: SHOP_CATALOGUE,
      call: { tool: 'charge_card', arguments: {}, confirmed: true },
    });
    expect(confirmed.json.verdict).toBe('allow');
  });

  it('answers 422 for rules that do not compile, 400 for a bad call', async () => {
    const r = await post('/v1/rules/check', { rules: { sheet: UNSUPPORTED_SHEET }, call: { tool: 'refund_card' } });
    expect(r.status).toBe(422);
    expect(r.json.error.code).toBe('rule_sheet_unsupported');
    const bad = await post('/v1/rules/check', { rules: { sheet: SHOP_SHEET }, call: { tool: 'refund_card', confirmed: 'yes' } });
    expect(bad.status).toBe(400);
    const both = await post('/v1/rules/check', { rules: {}, call: { tool: 'refund_card' } });
    expect(both.status).toBe(400);
  });
});

describe('policy templates', () => {
  it('lists the templates and drafts one', async () => {
    const list = await server.call('GET', '/v1/policies/templates', { key: server.key('viewer') });
    expect(list.status).toBe(200);
    expect(list.json.map((t: { name: string }) => t.name)).toContain('support-refunds');
    const draft = await post('/v1/policies/templates/support-refunds', { params: { auto_limit: '50.00' } });
    expect(draft.status).toBe(200);
    expect(draft.json.document.schema).toBe('tollgate/policy@1');
    expect(draft.json.examples.examples.length).toBeGreaterThan(0);
    const check = await post('/v1/policies/validate', { document: draft.json.document });
    expect(check.json.valid).toBe(true);
  });

  it('answers 422 INVALID_PARAMETERS with the parameter codes, 404 NOT_FOUND for an unknown template', async () => {
    const unknown = await post('/v1/policies/templates/support-refunds', { params: { colour: 'blue' } });
    expect(unknown.status).toBe(422);
    expect(unknown.json.error.code).toBe('INVALID_PARAMETERS');
    expect(unknown.json.error.details.problems[0]).toMatchObject({ code: 'UNKNOWN_PARAMETER', path: '/params/colour' });
    const invalid = await post('/v1/policies/templates/support-refunds', { params: { auto_limit: 'lots' } });
    expect(invalid.status).toBe(422);
    expect(invalid.json.error.code).toBe('INVALID_PARAMETERS');
    expect(invalid.json.error.details.problems[0].code).toBe('INVALID_PARAMETER');
    const none = await post('/v1/policies/templates/nope', {});
    expect(none.status).toBe(404);
    expect(none.json.error).toMatchObject({ code: 'NOT_FOUND', details: { resource: 'template' } });
  });
});
