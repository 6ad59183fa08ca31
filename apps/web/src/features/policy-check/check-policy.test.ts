// checkPolicy: status and problems for valid, invalid and unreadable policy text.
import { describe, expect, it } from 'vitest';
import { checkPolicy } from './check-policy.ts';
import { SAMPLE_POLICY } from './sample-policy.ts';

const withRule = (rule: string): string => `{
  "schema": "tollgate/policy@1",
  "default": "deny",
  "rules": [
    ${rule}
  ]
}`;

describe('checkPolicy', () => {
  it('finds the sample valid at revision 1', () => {
    expect(checkPolicy(SAMPLE_POLICY)).toEqual({
      status: { valid: true, revision: 1, text: 'Valid · revision 1' },
      problems: [],
      diagnostics: [],
    });
  });

  it('gives the editor one diagnostic per listed problem, in the same order and with the same code', () => {
    const check = checkPolicy(
      '{\n  "schema": "tollgate/policy@1",\n  "default": "allow",\n  "rules": [{ "id": "a", "actions": ["x.y"], "efect": "allow" }]\n}',
    );
    expect(check.diagnostics.map((d) => [d.code, d.path])).toEqual(check.problems.map((p) => [p.code, p.path]));
    expect(check.diagnostics.length).toBeGreaterThan(1);
    const broken = checkPolicy('{\n  "default" "deny"\n}');
    expect(broken.diagnostics).toEqual([expect.objectContaining({ code: 'NOT_JSON', line: 2 })]);
  });

  it('lists every validation error with its code, path and position', () => {
    const text = `{
  "schema": "tollgate/policy@1",
  "default": "allow",
  "rules": [
    { "id": "read-orders", "actions": ["orders.read"], "efect": "allow" }
  ]
}`;
    const check = checkPolicy(text);
    expect(check.status.valid).toBe(false);
    expect(check.problems).toContainEqual(
      expect.objectContaining({ code: 'PERMISSIVE_DEFAULT', severity: 'error', path: '/default', position: { line: 3, column: 14 } }),
    );
    expect(check.problems).toContainEqual(
      expect.objectContaining({ code: 'UNKNOWN_MEMBER', path: '/rules/0/efect', position: { line: 5, column: 65 } }),
    );
    expect(check.status.text).toBe(`${check.problems.length} problems`);
  });

  it('leaves out the position when the path names nothing in the text', () => {
    const check = checkPolicy('{"default": "deny", "rules": []}');
    expect(check.problems).toEqual([{ code: 'MISSING_MEMBER', severity: 'error', path: '/schema', message: expect.any(String) }]);
    expect(check.status).toEqual({ valid: false, text: '1 problem' });
  });

  it('reports text that is not JSON with its line and column', () => {
    const check = checkPolicy('{\n  "schema": "tollgate/policy@1",\n  "default" "deny"\n}');
    expect(check.status).toEqual({ valid: false, text: '1 problem' });
    expect(check.problems).toEqual([
      expect.objectContaining({
        code: 'NOT_JSON',
        severity: 'error',
        position: { line: 3, column: 13 },
        message: expect.stringMatching(/line 3, column 13/),
      }),
    ]);
  });

  it('counts what the JSON reader refuses beside the validation errors', () => {
    const check = checkPolicy('{"schema": "tollgate/policy@1", "default": "deny", "default": "deny", "rules": []}');
    expect(check.problems).toEqual([
      expect.objectContaining({ code: 'DUPLICATE_MEMBER', path: '/default', position: { line: 1, column: 52 } }),
    ]);
    expect(check.status.text).toBe('1 problem');
  });

  it('reads revision 2 from a description and revision 3 from a when list', () => {
    const described = withRule('{ "id": "reads", "description": "Reading is safe.", "actions": ["orders.read"], "effect": "allow" }');
    expect(checkPolicy(described).status).toEqual({ valid: true, revision: 2, text: 'Valid · revision 2' });
    const conditioned = withRule(
      '{ "id": "reads", "actions": ["orders.read"], "when": [{ "path": "/region", "eq": "eu" }], "effect": "allow" }',
    );
    expect(checkPolicy(conditioned).status).toEqual({ valid: true, revision: 3, text: 'Valid · revision 3' });
  });
});
