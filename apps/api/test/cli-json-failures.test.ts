// Under --json, every command that fails on its input says so in JSON on stdout, each problem with its own
// code, bare message, file, and line and column where the reader placed it (docs/cli.md, "Failures under --json"),
// as `policy validate --json` does; the exit code and the human line on stderr stay as they were.
import { describe, expect, it } from 'vitest';
import { REFUND_TOOL, REFUNDS, runCli, workspace } from './cli-harness.ts';

const NOT_JSON = '{"tool": "issue_refund", ';

describe('failures under --json', () => {
  const w = workspace();
  const policy = w.file('p.json', REFUNDS);
  const tool = w.file('tool.json', REFUND_TOOL);
  const tools = w.file('tools.json', [REFUND_TOOL]);
  const args = w.file('args.json', { amount: '50' });
  const sheet = w.file('rules.yaml', 'rules:\n  - action: issue_refund\n    at_most: 1\n');
  const bad = w.file('bad.json', NOT_JSON);
  const cases: [string, string[]][] = [
    ['policy evaluate, the policy', ['policy', 'evaluate', bad, '--tool', tool, '--args', args]],
    ['policy evaluate, the arguments', ['policy', 'evaluate', policy, '--tool', tool, '--args', bad]],
    ['policy test, the examples', ['policy', 'test', policy, '--examples', bad]],
    ['policy map, the tools', ['policy', 'map', policy, '--tools', bad]],
    ['policy diff, the candidate', ['policy', 'diff', policy, bad, '--tools', tools]],
    ['rules check, the call', ['rules', 'check', sheet, '--call', bad]],
    ['mcp import, the config', ['mcp', 'import', bad, '--data', w.dir]],
  ];

  it.each(cases)('%s: NOT_JSON with its file, line and column', async (_what, argv) => {
    const human = await runCli(...argv);
    const run = await runCli(...argv, '--json');
    expect(run.code).toBe(2);
    expect(run.code).toBe(human.code);
    expect(run.stderr).toBe(human.stderr);
    const errors = JSON.parse(run.stdout).errors as Record<string, unknown>[];
    expect(errors).toEqual([expect.objectContaining({ code: 'NOT_JSON', file: bad, line: 1, column: expect.any(Number) })]);
    expect(errors[0]?.message).not.toContain(bad);
    expect(errors[0]?.message).not.toContain('NOT_JSON');
  });

  it('gives a file that cannot be read at all with its code and file, and no place', async () => {
    const missing = `${w.dir}/missing.json`;
    const run = await runCli('policy', 'map', policy, '--tools', missing, '--json');
    expect(run.code).toBe(2);
    const [error] = JSON.parse(run.stdout).errors;
    expect(error).toMatchObject({ code: 'UNREADABLE', file: missing, message: 'no such file' });
    expect(error.line).toBeUndefined();
  });

  it('keeps usage errors on stderr alone', async () => {
    const run = await runCli('policy', 'map', policy, '--json');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });
});
