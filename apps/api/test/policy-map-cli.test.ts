// tollgate policy map and policy diff: the engine's words one line per tool or change, the JSON forms
// (a witness's numbers kept as written), and the exit codes of the policy commands.
import { describe, expect, it } from 'vitest';
import { APPROVER, DEVELOPER, REFUND_TOOL, REFUNDS, runCli, workspace } from './cli-harness.ts';

const CATALOGUE = [
  { name: 'read_order', action: 'orders.read' },
  REFUND_TOOL,
  { name: 'send_payout', action: 'payouts.send', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'read_customer', action: 'customers.read' },
];

type Rule = { id: string; amount?: Record<string, string> };

/** The refunds example with the automatic limit at `limit` and `extra` rules added. */
function refundsWith(limit: string, extra: unknown[] = []) {
  const rules = (REFUNDS.rules as Rule[]).map((r) => {
    if (r.id === 'refund-auto') return { ...r, amount: { ...r.amount, lte: limit } };
    if (r.id === 'refund-approval') return { ...r, amount: { ...r.amount, gt: limit } };
    return r;
  });
  return { ...REFUNDS, rules: [...rules, ...extra] };
}

describe('tollgate policy map', () => {
  it('prints one line per tool in the engine words', async () => {
    const w = workspace();
    const run = await runCli('policy', 'map', w.file('p.json', REFUNDS), '--tools', w.file('tools.json', CATALOGUE));
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([
      'read_order (orders.read): allow (read-orders)',
      'issue_refund (refund.issue): [0, 100] allow (refund-auto); (100, 1000] require approval by roles admin, approver, owner (refund-approval); (1000, inf) deny (refund-over-limit); no amount: deny (refund-over-limit, fail closed)',
      'send_payout (payouts.send): deny (never)',
      'read_customer (customers.read): deny (DEFAULT)',
    ]);
  });

  it('answers JSON with the eligible members when a members file is given', async () => {
    const w = workspace();
    const members = [
      { id: APPROVER, role: 'approver', signing: true },
      { id: DEVELOPER, role: 'developer', signing: true },
    ];
    const run = await runCli(
      'policy',
      'map',
      w.file('p.json', REFUNDS),
      '--tools',
      w.file('tools.json', [REFUND_TOOL]),
      '--members',
      w.file('members.json', members),
      '--json',
    );
    expect(run.code).toBe(0);
    const [refund] = JSON.parse(run.stdout).tools;
    expect(refund.decision).toBe('depends_on_amount');
    expect(refund.bands[1]).toEqual({
      amount: { lo: '100', lo_inclusive: false, hi: '1000', hi_inclusive: true, words: '(100, 1000]' },
      outcome: {
        decision: 'require_approval',
        rule: 'refund-approval',
        code: null,
        approvers: { roles: ['admin', 'approver', 'owner'], users: [] },
        eligible: [APPROVER],
        fail_closed: false,
      },
    });
  });

  it('reports a tool whose decision depends on its arguments as depending, with the rule', async () => {
    const w = workspace();
    const doc = refundsWith('100', [{ id: 'eu-read', actions: ['orders.read'], when: [{ path: '/region', eq: 'eu' }], effect: 'deny' }]);
    const run = await runCli('policy', 'map', w.file('p.json', doc), '--tools', w.file('tools.json', [CATALOGUE[0]]));
    expect([run.code, run.stdout]).toEqual([0, 'read_order (orders.read): depends on arguments (rules eu-read)\n']);
  });

  it('exits 1 for an invalid policy and 2 for a missing --tools or an unreadable tools file', async () => {
    const w = workspace();
    const tools = w.file('tools.json', CATALOGUE);
    const invalid = await runCli('policy', 'map', w.file('bad.json', { ...REFUNDS, default: 'allow' }), '--tools', tools);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('invalid, so it decides nothing');
    const missing = await runCli('policy', 'map', w.file('p.json', REFUNDS));
    expect([missing.code, missing.stderr.split('\n')[0]]).toEqual([2, 'tollgate policy map: missing --tools']);
    const unreadable = await runCli('policy', 'map', w.file('p.json', REFUNDS), '--tools', w.file('t.json', '{"not": "a list"'));
    expect(unreadable.code).toBe(2);
  });
});

describe('tollgate policy diff', () => {
  it("prints the demo's revert as exactly one narrowing, for every tool and over a tools file", async () => {
    const w = workspace();
    const v2 = w.file('v2.json', refundsWith('250'));
    const v1 = w.file('v1.json', REFUNDS);
    const run = await runCli('policy', 'diff', v2, v1);
    expect([run.code, run.stdout]).toEqual([0, 'refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)\n']);
    const over = await runCli('policy', 'diff', v2, v1, '--tools', w.file('tools.json', CATALOGUE));
    expect(over.stdout).toBe('issue_refund (refund.issue), amount in (100, 250] USD: allow -> require approval (narrows)\n');
    const back = await runCli('policy', 'diff', v1, v2, '--json');
    const out = JSON.parse(back.stdout);
    expect([out.widens, out.narrows, out.depends]).toEqual([true, false, false]);
    expect(out.entries.map((e: { direction: string }) => e.direction)).toEqual(['widens']);
  });

  it('says so when no call changes decision', async () => {
    const w = workspace();
    const run = await runCli('policy', 'diff', w.file('a.json', REFUNDS), w.file('b.json', { ...REFUNDS, rules: [...REFUNDS.rules] }));
    expect([run.code, run.stdout]).toEqual([0, 'no call changes decision\n']);
  });

  it("writes a witness's arguments as JSON text, numbers kept as written", async () => {
    const w = workspace();
    const bulk = { id: 'bulk', actions: ['orders.read'], when: [{ path: '/qty', gt: '10' }], effect: 'deny' };
    const run = await runCli('policy', 'diff', w.file('a.json', REFUNDS), w.file('b.json', refundsWith('100', [bulk])), '--json');
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.narrows).toBe(true);
    for (const entry of out.entries) {
      expect(entry.kind).toBe('change');
      expect(typeof entry.witness.arguments).toBe('string');
      expect(() => JSON.parse(entry.witness.arguments)).not.toThrow();
    }
    expect(out.entries.map((e: { words: string }) => e.words).join('\n')).toContain('/qty gt 10');
  });

  it('exits 2 without two files and 1 when either is invalid', async () => {
    const w = workspace();
    const only = w.file('a.json', REFUNDS);
    const one = await runCli('policy', 'diff', only);
    expect([one.code, one.stderr.split('\n')[0]]).toEqual([2, `tollgate policy diff: expected RUNNING and CANDIDATE, got ${only}`]);
    const invalid = await runCli('policy', 'diff', w.file('a.json', REFUNDS), w.file('bad.json', { schema: 'tollgate/policy@1' }));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('bad.json: invalid, so it decides nothing');
  });
});

describe('the analyses’ time limit', () => {
  /** The refunds example behind `links` chained deny rules on orders.read: 2^links regions before the last. */
  function chained(links: number, last: 'deny' | 'require_approval') {
    const chain = Array.from({ length: links }, (_, i) => ({
      id: `chain-${i}`,
      actions: ['orders.read'],
      when: [
        { path: `/a${i}`, eq: 'x' },
        { path: `/b${i}`, eq: 'y' },
      ],
      effect: i === links - 1 ? last : 'deny',
      ...(i === links - 1 && last === 'require_approval' ? { approvers: { roles: ['owner'] } } : {}),
    }));
    return { ...REFUNDS, rules: [...chain, ...(REFUNDS.rules as unknown[])] };
  }

  it('prints nothing of an analysis past --time-limit and exits 2', async () => {
    const w = workspace();
    const run = await runCli(
      'policy',
      'diff',
      w.file('a.json', chained(24, 'deny')),
      w.file('b.json', chained(24, 'require_approval')),
      '--time-limit',
      '1',
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('the analysis ran past its time budget (--time-limit 1); nothing of it is printed');
  });

  it('refuses a time limit that is not whole seconds', async () => {
    const w = workspace();
    const run = await runCli('policy', 'map', w.file('p.json', REFUNDS), '--tools', w.file('t.json', CATALOGUE), '--time-limit', '1.5');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--time-limit takes a whole number of seconds, not "1.5"');
  });
});
