// validateDocument: every kind through its own reader, problems with lines and paths, lints apart,
// and the "does not load" report of an edit (docs/store.md, "The edit seam") formatted with its line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POLICY_CODES } from '../policy/codes.ts';
import { formatDiagnostic } from '../source/diagnostic.ts';
import { DOCUMENT_CODES } from './codes.ts';
import { validateDocument } from './validate-document.ts';

const POLICY = `{
  "schema": "tollgate/policy@1",
  "default": "deny",
  "rules": [
    {"id": "refund-auto", "actions": ["refund.issue"], "amount": {"currency": "USD", "lte": "100"}, "effect": "allow"}
  ]
}`;

const SHEET = 'rules:\n  - action: refund_card\n    requires: [supervisor_approved]\n    when: { amount_over: 200 }\n';
const CATALOGUE =
  'tools:\n  - {name: refund_card, action: refund.issue, kind: write}\n  - {name: close_account, action: accounts.close, kind: write}\n';

const SUITE = `{
  "tools": [{"name": "issue_refund", "action": "refund.issue", "amount": {"pointer": "/amount", "currency": "USD"}}],
  "examples": [
    {"name": "small", "tool": "issue_refund", "arguments": {"amount": "50"}, "expect": {"decision": "allow", "rule": "refund-auto"}}
  ]
}`;

function brief(id: string, text: string) {
  return validateDocument(id, text).problems.map((p) => ({ code: p.code, path: p.path, line: p.line }));
}

describe('validateDocument', () => {
  it.each([
    ['catalogue.yaml', CATALOGUE, 'catalogue'],
    ['catalogues/shop.json', JSON.stringify({ tools: [{ name: 'a', action: 'a.b', kind: 'read' }] }), 'catalogue'],
    ['sheets/shop.rules.yaml', SHEET, 'sheet'],
    ['colang/shop.co', 'define flow delete_customer\n  refuse\n', 'colang'],
    ['policies/refunds.policy.json', POLICY, 'policy'],
    ['policies/refunds.examples.json', SUITE, 'examples'],
    ['rulesets/support.ruleset.json', '{"name": "S", "pins": [{"rule_id": "colang/shop.co"}]}', 'ruleset'],
    [
      'agents/support.agent.yaml',
      'catalogue: catalogue.yaml\npolicy: policies/p.policy.json\ndelegation:\n  actions: [refund.*]\n',
      'agent',
    ],
    ['settings.yaml', 'approved_rulesets_only: false\n', 'settings'],
  ])('accepts a valid %s as a %s', (id, text, kind) => {
    expect(validateDocument(id, text)).toEqual({ kind, problems: [], lints: [] });
  });

  it('refuses an id of no kind with DOCUMENT_KIND_UNKNOWN', () => {
    const r = validateDocument('notes/todo.txt', 'anything');
    expect(r.kind).toBeUndefined();
    expect(r.problems.map((p) => [p.code, p.path])).toEqual([['DOCUMENT_KIND_UNKNOWN', '']]);
    expect(r.problems.map((p) => formatDiagnostic('notes/todo.txt', p))[0]).toMatch(/^notes\/todo\.txt: DOCUMENT_KIND_UNKNOWN at \/: /);
  });

  it('gives a sheet refusal its line, and keeps lints apart from problems', () => {
    expect(brief('sheets/shop.rules.yaml', 'rules:\n  - action: refund_card\n    requries: [x]\n')).toEqual([
      { code: 'rule_sheet_unsupported', path: undefined, line: 3 },
    ]);
    const catalogue = { tools: [{ name: 'close_account', kind: 'write' as const }] };
    const r = validateDocument('sheets/shop.rules.yaml', SHEET, { catalogue });
    expect(r.problems).toEqual([]);
    expect(r.lints.map((l) => [l.code, l.line])).toEqual([
      ['write_ungoverned', 1],
      ['rule_action_unknown', 2],
    ]);
  });

  it('gives a Colang problem its line, and lints a valid one against a catalogue', () => {
    expect(brief('colang/shop.co', 'define flow a\n  refuse\ndefine flow a\n  refuse\n')).toEqual([
      { code: 'colang_duplicate', path: undefined, line: 3 },
    ]);
    const r = validateDocument('colang/shop.co', 'define flow a\n  refuse\n', { catalogue: { tools: [{ name: 'b', kind: 'write' }] } });
    expect(r.lints.map((l) => l.code)).toEqual(['rule_action_unknown', 'write_ungoverned']);
  });

  it('gives a policy problem its path and line, reads exact JSON, and returns warnings as lints', () => {
    const bad = POLICY.replace('"effect": "allow"', '"effect": "allow", "efect": 1').replace('"default": "deny"', '"default": "allow"');
    expect(brief('policies/refunds.policy.json', bad)).toEqual([
      { code: 'PERMISSIVE_DEFAULT', path: '/default', line: 3 },
      { code: 'UNKNOWN_MEMBER', path: '/rules/0/efect', line: 5 },
    ]);
    const twice = POLICY.replace('"default": "deny",', '"default": "deny",\n  "default": "deny",');
    expect(brief('policies/refunds.policy.json', twice)).toEqual([{ code: 'DUPLICATE_MEMBER', path: '/default', line: 4 }]);
    expect(brief('policies/refunds.policy.json', '{"schema": ')).toEqual([{ code: 'NOT_JSON', path: '', line: 1 }]);
    const r = validateDocument('policies/refunds.policy.json', POLICY, { tools: [{ name: 'refund_card', action: 'refund.issue' }] });
    expect(r.problems).toEqual([]);
    expect(r.lints.map((l) => [l.code, l.path, l.line])).toEqual([['FAIL_CLOSED_ROUTING', '/rules/0/amount', 5]]);
  });

  it('reads an example suite as tollgate policy test does: codes, paths and lines, every problem', () => {
    const bad = SUITE.replace('"tool": "issue_refund"', '"tool": "refund"').replace('"decision": "allow"', '"decision": "maybe", "why": 1');
    expect(brief('policies/refunds.examples.json', bad)).toEqual([
      { code: 'INVALID_VALUE', path: '/examples/0/tool', line: 4 },
      { code: 'INVALID_VALUE', path: '/examples/0/expect/decision', line: 4 },
      { code: 'UNKNOWN_MEMBER', path: '/examples/0/expect/why', line: 4 },
    ]);
    const tools = SUITE.replace('"action": "refund.issue"', '"action": "Refund Issue"');
    expect(brief('policies/refunds.examples.json', tools)).toEqual([{ code: 'INVALID_ACTION', path: '/tools/0/action', line: 2 }]);
    const twice = SUITE.replace('"examples": [', '"examples": [],\n  "examples": [');
    expect(brief('policies/refunds.examples.json', twice)).toEqual([{ code: 'DUPLICATE_MEMBER', path: '/examples', line: 4 }]);
    expect(brief('policies/refunds.examples.json', '{"tools": [')).toEqual([{ code: 'NOT_JSON', path: '', line: 1 }]);
    expect(brief('policies/refunds.examples.json', '[]')).toEqual([{ code: 'INVALID_TYPE', path: '', line: 1 }]);
    const r = validateDocument('policies/refunds.examples.json', bad);
    expect(formatDiagnostic('policies/refunds.examples.json', r.problems[0] as never)).toMatch(
      /^policies\/refunds\.examples\.json:4:\d+: /,
    );
  });

  it('every problem of an example suite has a policy code, a line and a path', () => {
    const example = fc.record(
      {
        name: fc.oneof(fc.string(), fc.integer()),
        tool: fc.constantFrom('issue_refund', 'x', 3),
        arguments: fc.jsonValue(),
        expect: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    const suite = fc.record(
      { tools: fc.oneof(fc.jsonValue(), fc.constant([{ name: 'issue_refund', action: 'refund.issue' }])), examples: fc.array(example) },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(
        fc.oneof(
          suite.map((v) => JSON.stringify(v, null, 2)),
          fc.string(),
        ),
        (text) => {
          for (const p of validateDocument('policies/a.examples.json', text).problems) {
            expect(Object.keys(POLICY_CODES)).toContain(p.code);
            expect(p.line).toBeGreaterThanOrEqual(1);
            expect(p.path).toBeDefined();
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('gives a catalogue problem its path and line, YAML or JSON by the id', () => {
    expect(brief('catalogue.yaml', 'tools:\n  - {name: a, action: a.b, kind: maybe}\n')).toEqual([
      { code: 'INVALID_VALUE', path: '/tools/0/kind', line: 2 },
    ]);
    expect(brief('catalogues/shop.json', '{"tools": 3}')).toEqual([{ code: 'INVALID_TYPE', path: '/tools', line: 1 }]);
  });

  it('reports an edit that does not load with its line (docs/store.md, "The edit seam")', () => {
    const r = validateDocument('agents/support.agent.yaml', 'catalogue: catalogue.yaml\ndelegation:\n  actions: [refund.*\n');
    expect(r.problems.map((p) => formatDiagnostic('agents/support.agent.yaml', p))).toEqual([
      expect.stringMatching(/^agents\/support\.agent\.yaml:4:\d+: NOT_YAML: not YAML: /),
    ]);
  });

  it('passes the store on: rule sets, agents and settings ask it whether documents exist', () => {
    const exists = () => false;
    const ruleset = validateDocument('rulesets/s.ruleset.json', '{"name": "S", "pins": [{"rule_id": "colang/a.co"}]}', {
      exists,
    });
    expect(ruleset.problems.map((p) => p.code)).toEqual(['RULE_NOT_VISIBLE']);
    const agent = validateDocument(
      'agents/a.agent.yaml',
      'catalogue: catalogue.yaml\nruleset: rulesets/s.ruleset.json\ndelegation:\n  actions: [a.b]\n',
      {
        exists,
      },
    );
    expect(agent.problems.map((p) => p.path)).toEqual(['/catalogue', '/ruleset']);
  });

  it('every problem of a rule set, agent or settings file has a registered code, a line and a path', () => {
    const ids = ['rulesets/s.ruleset.json', 'agents/a.agent.yaml', 'settings.yaml'];
    const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
    const yamlish = fc
      .array(
        fc.tuple(
          fc.constantFrom(
            'catalogue',
            'rulebook',
            'policy',
            'ruleset',
            'delegation',
            'disclosure',
            'approval_ttl_seconds',
            'observe_windows',
            'approved_rulesets_only',
            'pins',
            'x',
          ),
          fc.constantFrom(
            'catalogue.yaml',
            'sheets/a.rules.yaml',
            '[a.b, "*"]',
            '{actions: [a.*], spending_limit: {amount: "5", currency: USD}}',
            '3600',
            'true',
            '[{name: w}]',
            '',
            '1e3',
            '&a 1',
          ),
        ),
        { maxLength: 6 },
      )
      .map((pairs) => pairs.map(([k, v]) => `${k}: ${v}`).join('\n'));
    fc.assert(
      fc.property(fc.constantFrom(...ids), fc.oneof(json, yamlish), (id, text) => {
        for (const p of validateDocument(id, text).problems) {
          expect(Object.keys(DOCUMENT_CODES)).toContain(p.code);
          expect(p.line).toBeGreaterThanOrEqual(1);
          expect(p.path).toBeDefined();
        }
      }),
      { numRuns: 500 },
    );
  });
});
