// The installed bin, as a person runs it from the repository root: a real process, real exit codes.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function tollgate(...args: string[]) {
  const r = spawnSync('npx', ['--no-install', 'tollgate', ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npx tollgate', () => {
  it('runs the README commands on the examples with the documented exit codes', () => {
    const validate = tollgate(
      'policy',
      'validate',
      'examples/refunds.policy.json',
      '--tools',
      'examples/refunds.tools.json',
      '--members',
      'examples/members.json',
    );
    expect(validate.code).toBe(0);
    expect(validate.stdout).toBe('examples/refunds.policy.json: valid, language revision 1\n');
    const evaluate = tollgate(
      'policy',
      'evaluate',
      'examples/refunds.policy.json',
      '--tool',
      'examples/issue-refund.tool.json',
      '--args',
      'examples/refund-500.args.json',
      '--members',
      'examples/members.json',
      '--json',
    );
    expect(evaluate.code).toBe(0);
    expect(JSON.parse(evaluate.stdout)).toMatchObject({
      decision: 'require_approval',
      rule: 'refund-approval',
      approvers: ['8f14e45f-ceea-467a-9575-3c8ff9a3e1d0', '45c48cce-2e2d-4fbd-a5a0-2b0b6b7ea1a3'],
    });
    expect(tollgate('policy', 'test', 'examples/refunds.policy.json', '--examples', 'examples/refunds.examples.json').code).toBe(0);
  });

  it('exits 2 with a one-line reason and no stack trace for a file that is not there', () => {
    const run = tollgate('policy', 'validate', 'examples/missing.json');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('examples/missing.json: UNREADABLE: no such file\n');
  });

  it('prints the help and exits 0', () => {
    const run = tollgate('help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('tollgate policy validate FILE');
  });
});
