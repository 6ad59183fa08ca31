// tollgate policy evaluate: the decision JSON, approvers resolved at decision time, exit codes.
import { describe, expect, it } from 'vitest';
import { APPROVER, DEVELOPER, REFUND_TOOL, REFUNDS, runCli, workspace } from './cli-harness.ts';

async function evaluate(args: unknown, extra: { members?: unknown; tool?: unknown; doc?: unknown } = {}) {
  const w = workspace();
  const argv = [
    'policy',
    'evaluate',
    w.file('p.json', extra.doc ?? REFUNDS),
    '--tool',
    w.file('tool.json', extra.tool ?? REFUND_TOOL),
    '--args',
    w.file('args.json', typeof args === 'string' ? args : JSON.stringify(args)),
    '--json',
  ];
  if (extra.members) argv.push('--members', w.file('members.json', extra.members));
  const run = await runCli(...argv);
  return { ...run, json: run.code === 0 ? JSON.parse(run.stdout) : undefined };
}

describe('tollgate policy evaluate', () => {
  it.each(['100.0000000000000001', '12.0', '1E2', '-0', '1e3'])('reads the amount %s as written: INVALID_AMOUNT', async (lexeme) => {
    const run = await evaluate(`{"amount": ${lexeme}}`);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ decision: 'deny', rule: null, code: 'INVALID_AMOUNT' });
  });

  it('holds a 500 USD refund for approval with approvers null when no members are given', async () => {
    const run = await evaluate({ amount: '500' });
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ decision: 'require_approval', rule: 'refund-approval', code: null, approvers: null });
    expect(run.json.approval.ttl_seconds).toBe(14400);
    expect(Object.keys(run.json).sort()).toEqual(['approval', 'approvers', 'code', 'decision', 'explanation', 'rule']);
  });

  it.each([
    [{ amount: '100' }, 'allow', 'refund-auto', null],
    [{ amount: 100 }, 'allow', 'refund-auto', null],
    [{ amount: '100.000000000000000001' }, 'require_approval', 'refund-approval', null],
    [{ amount: '1000' }, 'require_approval', 'refund-approval', null],
    [{ amount: '1000.01' }, 'deny', 'refund-over-limit', null],
    [{}, 'deny', 'refund-over-limit', null],
    [{ amount: '1e3' }, 'deny', null, 'INVALID_AMOUNT'],
    [{ amount: 12.5 }, 'deny', null, 'INVALID_AMOUNT'],
  ])('decides %j as %s (rule %s, code %s)', async (args, decision, rule, code) => {
    const run = await evaluate(args);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ decision, rule, code });
  });

  it('explains a missing amount as a fail-closed match of the deny and the approval rule, without argument values', async () => {
    const run = await evaluate({ order: 'ORD-SECRET-991' });
    expect(run.json.explanation.fail_closed.map((m: { rule: string }) => m.rule)).toEqual(['refund-over-limit', 'refund-approval']);
    expect(run.stdout).not.toContain('ORD-SECRET-991');
  });

  it('resolves approvers at decision time: only signing members whose role can approve', async () => {
    const run = await evaluate(
      { amount: '500' },
      {
        members: [
          { id: APPROVER, role: 'approver', signing: true },
          { id: DEVELOPER, role: 'developer', signing: true },
          { id: '00000000-0000-4000-8000-000000000001', role: 'admin', signing: false },
        ],
      },
    );
    expect(run.json).toMatchObject({ decision: 'require_approval', approvers: [APPROVER] });
  });

  it('denies with NO_ELIGIBLE_APPROVER when a listed user has become a developer, without refusing the document', async () => {
    const doc = {
      ...REFUNDS,
      rules: [{ id: 'held', actions: ['refund.issue'], effect: 'require_approval', approvers: { users: [DEVELOPER] } }],
    };
    const run = await evaluate({ amount: '5' }, { doc, members: [{ id: DEVELOPER, role: 'developer', signing: true }] });
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ decision: 'deny', rule: 'held', code: 'NO_ELIGIBLE_APPROVER', approvers: null });
  });

  it('denies with TOO_MANY_APPROVERS over 32 eligible people', async () => {
    const members = Array.from({ length: 33 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      role: 'approver',
      signing: true,
    }));
    const run = await evaluate({ amount: '500' }, { members });
    expect(run.json).toMatchObject({ decision: 'deny', code: 'TOO_MANY_APPROVERS' });
  });

  it('reports DEFAULT when no rule is a candidate, and INVALID_TOOL_CONFIGURATION for a bad mapping', async () => {
    expect((await evaluate({}, { tool: { name: 'adjust', action: 'inventory.adjust' } })).json).toMatchObject({
      decision: 'deny',
      rule: null,
      code: 'DEFAULT',
    });
    const bad = await evaluate(
      { amount: '5' },
      { tool: { name: 'issue_refund', action: 'refund.issue', amount: { pointer: 'amount', currency: 'usd' } } },
    );
    expect(bad.json).toMatchObject({ decision: 'deny', code: 'INVALID_TOOL_CONFIGURATION' });
    expect(bad.stderr).toContain('INVALID_POINTER at /amount/pointer');
  });

  it('exits 1 for an invalid document and 2 for unreadable arguments', async () => {
    expect((await evaluate({ amount: '5' }, { doc: { ...REFUNDS, default: 'allow' } })).code).toBe(1);
    expect((await evaluate('{"amount": ')).code).toBe(2);
    expect((await evaluate('["not", "an", "object"]')).code).toBe(2);
    const dup = await evaluate('{"amount": "5", "amount": "5000"}');
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain('DUPLICATE_MEMBER');
  });

  it('prints a readable summary without --json', async () => {
    const w = workspace();
    const run = await runCli(
      'policy',
      'evaluate',
      w.file('p.json', REFUNDS),
      '--tool',
      w.file('t.json', REFUND_TOOL),
      '--args',
      w.file('a.json', { amount: '50' }),
    );
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('allow (rule refund-auto)');
  });
});
