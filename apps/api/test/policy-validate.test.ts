// tollgate policy validate: exit codes, the JSON report, one line per problem, bad input.
import { describe, expect, it } from 'vitest';
import { APPROVER, DEVELOPER, REFUND_TOOL, REFUNDS, runCli, workspace } from './cli-harness.ts';

describe('tollgate policy validate', () => {
  it('exits 0 for the reference example (examples/refunds.policy.json) and reports revision 1 with no problems, under either schema name', async () => {
    const w = workspace();
    for (const schema of ['tollgate/policy@1', 'kblock.cloud/policy@1']) {
      const run = await runCli('policy', 'validate', w.file('p.json', { ...REFUNDS, schema }), '--json');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({ valid: true, revision: 1, errors: [], warnings: [] });
    }
  });

  it('exits 1 and lists every problem as FILE: CODE at PATH: message', async () => {
    const w = workspace();
    const file = w.file('bad.json', { schema: 'tollgate/policy@1', default: 'allow', rules: [{ id: 'a', actions: ['x'], efect: 'deny' }] });
    const run = await runCli('policy', 'validate', file);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toContain(
      `${file}: PERMISSIVE_DEFAULT at /default: a permissive default is not possible: allow what you want with a rule, and default to "deny" or "require_approval"`,
    );
    expect(lines.some((l) => l.startsWith(`${file}: UNKNOWN_MEMBER at /rules/0/efect: `))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${file}: MISSING_MEMBER at /rules/0: `))).toBe(true);
  });

  it('reports revision 2 for description or guard and 3 for when', async () => {
    const w = workspace();
    const withDescription = { ...REFUNDS, rules: [{ ...REFUNDS.rules[0], description: 'reads are safe' }] };
    const withWhen = { ...REFUNDS, rules: [{ ...REFUNDS.rules[0], when: [{ path: '/x', eq: 'y' }] }] };
    expect(JSON.parse((await runCli('policy', 'validate', w.file('2.json', withDescription), '--json')).stdout).revision).toBe(2);
    expect(JSON.parse((await runCli('policy', 'validate', w.file('3.json', withWhen), '--json')).stdout).revision).toBe(3);
  });

  it('checks approver users against a members file', async () => {
    const w = workspace();
    const doc = {
      ...REFUNDS,
      rules: [
        {
          id: 'held',
          actions: ['refund.issue'],
          effect: 'require_approval',
          approvers: { users: [APPROVER, DEVELOPER, '00000000-0000-4000-8000-000000000000'] },
        },
      ],
    };
    const members = w.file('members.json', [
      { id: APPROVER, role: 'approver', signing: true },
      { id: DEVELOPER, role: 'developer', signing: true },
    ]);
    const run = await runCli('policy', 'validate', w.file('p.json', doc), '--members', members, '--json');
    expect(run.code).toBe(1);
    const errors = JSON.parse(run.stdout).errors.map((e: { code: string; path: string }) => `${e.code} ${e.path}`);
    expect(errors).toEqual(['APPROVER_ROLE_NOT_CAPABLE /rules/0/approvers/users/1', 'UNKNOWN_APPROVER /rules/0/approvers/users/2']);
  });

  it('warns FAIL_CLOSED_ROUTING given tools without a mapping in the rule currency', async () => {
    const w = workspace();
    const tools = w.file('tools.json', [
      REFUND_TOOL,
      { name: 'refund_eur', action: 'refund.issue', amount: { pointer: '/amount', currency: 'EUR' } },
    ]);
    const run = await runCli('policy', 'validate', w.file('p.json', REFUNDS), '--tools', tools, '--json');
    expect(run.code).toBe(0);
    const warnings = JSON.parse(run.stdout).warnings.map((e: { code: string; path: string }) => `${e.code} ${e.path}`);
    // One warning per rule and tool in EUR; reads and the payout rule match none of these tools.
    expect([...warnings].sort()).toEqual([
      'FAIL_CLOSED_ROUTING /rules/1/amount',
      'FAIL_CLOSED_ROUTING /rules/2/amount',
      'FAIL_CLOSED_ROUTING /rules/3/amount',
      'RULE_MATCHES_NO_TOOL /rules/0/actions',
      'RULE_MATCHES_NO_TOOL /rules/4/actions',
    ]);
  });

  it('refuses a document with a duplicate member or an inexact number, with the path and line', async () => {
    const w = workspace();
    const text =
      '{"schema": "tollgate/policy@1", "default": "deny",\n "rules": [{"id": "a", "actions": ["x"], "effect": "allow", "effect": "deny"},\n {"id": "b", "actions": ["y"], "when": [{"path": "/n", "eq": 0.1}], "effect": "deny"}]}';
    const run = await runCli('policy', 'validate', w.file('dup.json', text), '--json');
    expect(run.code).toBe(1);
    const errors = JSON.parse(run.stdout).errors;
    expect(errors).toContainEqual(expect.objectContaining({ code: 'DUPLICATE_MEMBER', path: '/rules/0/effect', line: 2 }));
    expect(errors).toContainEqual(expect.objectContaining({ code: 'INEXACT_NUMBER', path: '/rules/1/when/0/eq', line: 3 }));
  });

  it.each([
    ['not JSON', '{"schema": ', 'NOT_JSON'],
    ['empty', '', 'NOT_JSON'],
    ['10,000 levels deep', `${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'TOO_DEEP'],
    ['10 MB', ' '.repeat(10 * 1024 * 1024), 'TOO_LARGE'],
  ])('exits 2 for a document that is %s, with a clear message and no stack trace', async (_what, text, code) => {
    const w = workspace();
    const file = w.file('in.json', text);
    const run = await runCli('policy', 'validate', file);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${code}`);
    expect(run.stderr).toContain(file);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const json = await runCli('policy', 'validate', file, '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout).errors[0].code).toBe(code);
  });

  it('exits 1 for JSON that is not an object', async () => {
    const w = workspace();
    const run = await runCli('policy', 'validate', w.file('arr.json', '[1, 2]'), '--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).errors).toEqual([expect.objectContaining({ code: 'INVALID_TYPE', path: '' })]);
  });

  it('exits 2 for a missing file, a directory and a bad members file', async () => {
    const w = workspace();
    expect((await runCli('policy', 'validate', `${w.dir}/nope.json`)).code).toBe(2);
    expect((await runCli('policy', 'validate', w.dir)).stderr).toContain('UNREADABLE');
    const members = w.file('m.json', [{ id: 'not-a-uuid', role: 'boss', signing: 'yes' }]);
    const run = await runCli('policy', 'validate', w.file('p.json', REFUNDS), '--members', members);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('INVALID_USER_ID at /0/id');
  });

  it('exits 2 with the reason and a pointer to the usage for an unknown flag or a missing file argument', async () => {
    const unknownFlag = await runCli('policy', 'validate', 'x.json', '--frob');
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stderr).toBe(
      "tollgate policy validate: Unknown option '--frob'\nusage: tollgate policy validate FILE [--members FILE] [--tools FILE] [--json]\nrun 'tollgate policy validate --help' for more\n",
    );
    expect((await runCli('policy', 'validate')).code).toBe(2);
  });

  it('gives every unreadable input in --json as its own members: code, bare message, line and column where placed', async () => {
    const w = workspace();
    const cases: [string, string, { line?: number; column?: number }][] = [
      [w.file('not.json', '{"a":\n  1,,}'), 'NOT_JSON', { line: 2, column: 5 }],
      [w.file('deep.json', `${'['.repeat(70)}${']'.repeat(70)}`), 'TOO_DEEP', { line: 1, column: 65 }],
      [w.file('big.json', ' '.repeat(4 * 1024 * 1024 + 1)), 'TOO_LARGE', {}],
      [w.file('empty.json', ''), 'NOT_JSON', { line: 1, column: 1 }],
      [`${w.dir}/missing.json`, 'UNREADABLE', {}],
      [w.dir, 'UNREADABLE', {}],
    ];
    for (const [file, code, place] of cases) {
      const run = await runCli('policy', 'validate', file, '--json');
      expect(run.code, file).toBe(2);
      const [error, ...more] = JSON.parse(run.stdout).errors;
      expect(more).toEqual([]);
      expect(error).toMatchObject({ code, ...place });
      if (place.line === undefined) expect(error).not.toHaveProperty('line');
      // The bare message: no FILE:LINE:COLUMN: CODE: prefix.
      expect(error.message.startsWith(file)).toBe(false);
      expect(error.message).not.toContain(`${code}:`);
    }
    // A members file's problems name their file.
    const members = w.file('m.json', '[{"id": "not-a-uuid", "role": "owner", "signing": true}]');
    const run = await runCli('policy', 'validate', w.file('p.json', REFUNDS), '--members', members, '--json');
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout).errors[0]).toMatchObject({ code: 'INVALID_USER_ID', path: '/0/id', file: members });
  });
});
