// checkDocument over each kind the editor knows: sheets, Colang, policies and the rest.
import { createSheetCache } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { checkDocument } from './check-document.ts';

const SHEET = 'rules:\n  - action: export_customers\n    never: true\n';
const CATALOGUE = {
  tools: [
    { name: 'export_customers', kind: 'write' as const },
    { name: 'send_payout', kind: 'write' as const },
  ],
};

describe('checkDocument', () => {
  it('compiles a sheet into Colang, rulebook and overlay panes, with lints', () => {
    const check = checkDocument('sheets/a.rules.yaml', SHEET, CATALOGUE, createSheetCache());
    expect(check.outputs?.colang).toContain('export_customers');
    expect(JSON.parse(check.outputs?.overlay ?? '')).toHaveProperty('tools');
    expect(check.problems.map((p) => p.code)).toEqual(['write_ungoverned']);
  });

  it('refuses a sheet line with an unknown key on its line', () => {
    const check = checkDocument('sheets/a.rules.yaml', `${SHEET}    colour: blue\n`);
    expect(check.outputs).toBeNull();
    expect(check.problems[0]).toMatchObject({ code: 'rule_sheet_unsupported', line: 4 });
  });

  it('reports a permissive policy default at its path and a revision when valid', () => {
    const bad = checkDocument('policies/a.policy.json', '{"schema": "tollgate/policy@1", "default": "allow", "rules": []}');
    expect(bad.problems.map((p) => [p.code, p.path])).toContainEqual(['PERMISSIVE_DEFAULT', '/default']);
    expect(bad.revision).toBeUndefined();
    const good = checkDocument('policies/a.policy.json', '{"schema": "tollgate/policy@1", "default": "deny", "rules": []}');
    expect(good).toMatchObject({ revision: 1, summary: 'No problems' });
  });

  it('parses Colang and validates other kinds', () => {
    expect(checkDocument('colang/a.co', 'define flow\n').problems.length).toBeGreaterThan(0);
    expect(checkDocument('settings.yaml', 'nonsense: [').problems.length).toBeGreaterThan(0);
  });
});

describe('problem positions', () => {
  it('places policy problems from their pointer paths', () => {
    const check = checkDocument('policies/a.policy.json', '{\n  "schema": "tollgate/policy@1",\n  "default": "allow",\n  "rules": []\n}\n');
    expect(check.problems.find((p) => p.code === 'PERMISSIVE_DEFAULT')?.at).toEqual({ line: 3, column: 14 });
  });
});
