// tollgate ruleset validate / run against a real demo data folder: refusals naming the rules at fault,
// a run's verdict with each rule's version, and the refusals of a set that cannot run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/server/demo.ts';
import { lifecycleOf } from '../src/server/rulesets/lifecycle.ts';
import { openContext } from '../src/server/sqlite-context.ts';
import { runCli, workspace } from './cli-harness.ts';

let data: string;
beforeAll(async () => {
  data = mkdtempSync(join(tmpdir(), 'tollgate-ruleset-cli-'));
  const ctx = await openContext(data, { watch: false });
  await seedDemo(ctx);
  await ctx.close();
});
afterAll(() => rmSync(data, { recursive: true, force: true }));

const SUPPORT = 'rulesets/support.ruleset.json';

describe('tollgate ruleset validate', () => {
  it('accepts a set whose pins the data folder holds', async () => {
    const ws = workspace();
    const file = ws.file('ok.ruleset.json', { name: 'OK', pins: [{ rule_id: 'policies/refunds.policy.json', version_id: 1 }] });
    const run = await runCli('ruleset', 'validate', file, '--data', data);
    expect(run).toMatchObject({ code: 0, stdout: `${file}: valid, 1 pin\n` });
  });

  it('refuses with each problem on its line and the rules at fault, exit 1', async () => {
    const ws = workspace();
    const file = ws.file('bad.ruleset.json', {
      name: 'Bad',
      pins: [
        { rule_id: 'policies/refunds.policy.json', version_id: 7 },
        { rule_id: 'colang/missing.co' },
        { rule_id: 'sheets/support.rules.yaml' },
        { rule_id: 'sheets/support.rules.yaml' },
      ],
    });
    const run = await runCli('ruleset', 'validate', file, '--data', data);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/bad\.ruleset\.json:\d+:\d+: VERSION_NOT_FOUND: version 7 of policies\/refunds\.policy\.json does not exist$/);
    expect(lines[1]).toMatch(/RULE_NOT_VISIBLE: colang\/missing\.co is not a rule you can see$/);
    expect(lines[2]).toMatch(/DUPLICATE_PIN/);
    expect(lines[3]).toBe(
      `${file}: refused, 3 problems; rules at fault: policies/refunds.policy.json, colang/missing.co, sheets/support.rules.yaml`,
    );
    const json = JSON.parse((await runCli('ruleset', 'validate', file, '--data', data, '--json')).stdout);
    expect(json.rules).toEqual(['policies/refunds.policy.json', 'colang/missing.co', 'sheets/support.rules.yaml']);
  });

  it('lists every problem of every pin once: a missing version then the duplicate; a hidden rule once then the duplicate', async () => {
    const ws = workspace();
    const file = ws.file('twice.ruleset.json', {
      name: 'Twice',
      pins: [
        { rule_id: 'policies/refunds.policy.json', version_id: 9 },
        { rule_id: 'policies/refunds.policy.json' },
        { rule_id: 'colang/nope.co' },
        { rule_id: 'colang/nope.co' },
      ],
    });
    const json = JSON.parse((await runCli('ruleset', 'validate', file, '--data', data, '--json')).stdout);
    expect(json.problems.map((p: { code: string; path: string }) => [p.code, p.path])).toEqual([
      ['VERSION_NOT_FOUND', '/pins/0/version_id'],
      ['DUPLICATE_PIN', '/pins/1/rule_id'],
      ['RULE_NOT_VISIBLE', '/pins/2/rule_id'],
      ['DUPLICATE_PIN', '/pins/3/rule_id'],
    ]);
    expect(json.rules).toEqual(['policies/refunds.policy.json', 'colang/nope.co']);
  });

  it('exits 2 on a file that is not JSON at all, an empty one too, as for any input it cannot read', async () => {
    const ws = workspace();
    const empty = ws.file('empty.ruleset.json', '');
    const run = await runCli('ruleset', 'validate', empty, '--data', data);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/empty\.ruleset\.json(:1:1)?: NOT_JSON/);
    expect(run.stdout.trim().split('\n').at(-1)).toBe(`${empty}: unreadable`);
    const json = await runCli('ruleset', 'validate', ws.file('half.ruleset.json', '{"name": '), '--data', data, '--json');
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: false, rules: [], problems: [{ code: 'NOT_JSON' }] });
  });

  it('exits 2 on a missing file or a missing --data', async () => {
    expect((await runCli('ruleset', 'validate', '/nonexistent.json', '--data', data)).code).toBe(2);
    const ws = workspace();
    expect((await runCli('ruleset', 'validate', ws.file('x.json', { name: 'x', pins: [] }))).code).toBe(2);
  });
});

describe('tollgate ruleset run', () => {
  it("prints the set's verdict and each rule's result with the version that ran", async () => {
    const ws = workspace();
    const call = ws.file('call.json', { tool: 'issue_refund', arguments: { amount: '500' } });
    const run = await runCli('ruleset', 'run', SUPPORT, '--call', call, '--data', data);
    expect(run.code).toBe(0);
    // The policy holds the refund for approval, so the set, which passes only if every rule passes, fails.
    expect(run.stdout).toContain(`fail (${SUPPORT} version 1)`);
    expect(run.stdout).toContain('hold policies/refunds.policy.json@1 (pinned): require_approval by refund-approval');
    expect(run.stdout).toContain('pass sheets/support.rules.yaml@1 (pinned)');
    const json = JSON.parse((await runCli('ruleset', 'run', SUPPORT, '--call', call, '--data', data, '--json', '--version', '1')).stdout);
    expect(json).toMatchObject({
      verdict: 'fail',
      failed: ['policies/refunds.policy.json'],
      held: ['policies/refunds.policy.json'],
      version_id: 1,
    });
  });

  it('refuses an archived set with its replacement, exit 1; a missing version, exit 1; a bad call, exit 2', async () => {
    const ctx = await openContext(data, { watch: false });
    await lifecycleOf(ctx.store).update(SUPPORT, { status: 'archived', replaced_by: 'rulesets/next.ruleset.json' }, 'test', new Date());
    await ctx.close();
    const ws = workspace();
    const call = ws.file('call.json', { tool: 'issue_refund', arguments: { amount: '5' } });
    const archived = await runCli('ruleset', 'run', SUPPORT, '--call', call, '--data', data);
    expect(archived.code).toBe(1);
    expect(archived.stderr).toContain('RULESET_ARCHIVED');
    expect(archived.stderr).toContain('rulesets/next.ruleset.json');
    expect((await runCli('ruleset', 'run', SUPPORT, '--call', call, '--data', data, '--version', '9')).code).toBe(1);
    expect((await runCli('ruleset', 'run', SUPPORT, '--call', ws.file('bad.json', [1]), '--data', data)).code).toBe(2);
  });
});
