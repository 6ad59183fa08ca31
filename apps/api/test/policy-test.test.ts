// tollgate policy test: expected against actual for every example; exit 0 only when all hold.
import { describe, expect, it } from 'vitest';
import { REFUND_TOOL, REFUNDS, runCli, workspace } from './cli-harness.ts';

const suite = (examples: unknown[]) => ({ tools: [REFUND_TOOL, { name: 'read_order', action: 'orders.read' }], examples });

describe('tollgate policy test', () => {
  it('exits 0 when every expected outcome holds', async () => {
    const w = workspace();
    const examples = w.file(
      'ex.json',
      suite([
        { name: 'small refund', tool: 'issue_refund', arguments: { amount: '20' }, expect: { decision: 'allow', rule: 'refund-auto' } },
        { name: 'large refund', tool: 'issue_refund', arguments: { amount: '5000' }, expect: { decision: 'deny' } },
        { name: 'read', tool: 'read_order', arguments: null, expect: { decision: 'allow' } },
      ]),
    );
    const run = await runCli('policy', 'test', w.file('p.json', REFUNDS), '--examples', examples);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('PASS small refund');
    expect(run.stdout).toContain('3 examples passed, 0 failed, 0 not evaluable');
  });

  it('exits 1 and shows expected against actual when one fails', async () => {
    const w = workspace();
    const examples = w.file(
      'ex.json',
      suite([{ name: 'wrong', tool: 'issue_refund', arguments: { amount: '500' }, expect: { decision: 'allow' } }]),
    );
    const run = await runCli('policy', 'test', w.file('p.json', REFUNDS), '--examples', examples, '--json');
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ passed: 0, failed: 1, not_evaluable: 0 });
    expect(report.results[0]).toMatchObject({
      status: 'fail',
      expected: { decision: 'allow' },
      actual: { decision: 'require_approval', rule: 'refund-approval' },
    });
  });

  it('reports a call without arguments as not evaluable (ARGUMENTS_REQUIRED) when its decision depends on them', async () => {
    const w = workspace();
    const examples = w.file('ex.json', suite([{ name: 'recorded', tool: 'issue_refund', arguments: null, expect: { decision: 'allow' } }]));
    const run = await runCli('policy', 'test', w.file('p.json', REFUNDS), '--examples', examples, '--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).results[0]).toMatchObject({ status: 'not_evaluable', code: 'ARGUMENTS_REQUIRED', actual: null });
  });

  it('exits 2 for an examples file naming an unknown tool or with over 8 KiB of arguments', async () => {
    const w = workspace();
    const unknownTool = w.file('ex.json', suite([{ name: 'x', tool: 'nope', arguments: {}, expect: { decision: 'deny' } }]));
    const run = await runCli('policy', 'test', w.file('p.json', REFUNDS), '--examples', unknownTool);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/ex\.json:\d+:\d+: INVALID_VALUE: /);
    const big = w.file(
      'big.json',
      suite([{ name: 'x', tool: 'issue_refund', arguments: { note: 'x'.repeat(9000) }, expect: { decision: 'deny' } }]),
    );
    expect((await runCli('policy', 'test', w.file('p2.json', REFUNDS), '--examples', big)).stderr).toMatch(
      /big\.json:\d+:\d+: TOO_LARGE: /,
    );
  });
});
