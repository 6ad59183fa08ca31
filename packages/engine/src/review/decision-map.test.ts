// The decision map on named cases: the demo's catalogue under its refunds policy, eligible approvers,
// argument-dependent tools reported as depending with their rules, and a property: every call of a tool
// gets the outcome of the band it lies in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import refundsExample from '../../../../examples/refunds.policy.json' with { type: 'json' };
import { compilePolicy } from '../policy/compile.ts';
import { CompiledTool } from '../policy/tool.ts';
import type { Member, PolicyDocument, ToolBinding } from '../policy/types.ts';
import { contains } from './axis.ts';
import { decisionMap } from './decision-map.ts';
import { decideCall, outcomeKey } from './outcome.ts';

const REFUNDS = refundsExample as PolicyDocument;
const CATALOGUE: ToolBinding[] = [
  { name: 'read_order', action: 'orders.read' },
  { name: 'search_orders', action: 'orders.search' },
  { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'send_payout', action: 'payouts.send', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'export_customers', action: 'customers.export' },
  { name: 'read_customer', action: 'customers.read' },
];

function compiled(doc: unknown) {
  const r = compilePolicy(doc);
  if (!r.ok) throw new Error(`invalid test policy: ${JSON.stringify(r.errors)}`);
  return r.policy;
}

describe('the decision map', () => {
  it("gives every tool of the demo's catalogue its decision, with amount bands where the amount decides", () => {
    const map = decisionMap(compiled(REFUNDS), CATALOGUE);
    expect(map.map((t) => t.words)).toEqual([
      'read_order (orders.read): allow (read-orders)',
      'search_orders (orders.search): allow (read-orders)',
      'issue_refund (refund.issue): [0, 100] allow (refund-auto); (100, 1000] require approval by roles admin, approver, owner (refund-approval); (1000, inf) deny (refund-over-limit); no amount: deny (refund-over-limit, fail closed)',
      'send_payout (payouts.send): deny (never)',
      'export_customers (customers.export): deny (never)',
      'read_customer (customers.read): deny (DEFAULT)',
    ]);
    expect(map.map((t) => t.decision)).toEqual(['allow', 'allow', 'depends_on_amount', 'deny', 'deny', 'deny']);
    const refund = map[2];
    expect(refund?.bands?.map((b) => [b.amount, b.outcome?.decision, b.outcome?.rule])).toEqual([
      [{ lo: '0', loInclusive: true, hi: '100', hiInclusive: true }, 'allow', 'refund-auto'],
      [{ lo: '100', loInclusive: false, hi: '1000', hiInclusive: true }, 'require_approval', 'refund-approval'],
      [{ lo: '1000', loInclusive: false, hi: null, hiInclusive: false }, 'deny', 'refund-over-limit'],
      [null, 'deny', 'refund-over-limit'],
    ]);
    expect(map[5]?.outcome).toEqual({ decision: 'deny', rule: null, code: 'DEFAULT' });
  });

  it('names the eligible members when members are given, and denies where nobody is eligible', () => {
    const admin = '00000000-0000-4000-8000-00000000000a';
    const members: Member[] = [
      { id: admin, role: 'admin', signing: true },
      { id: '00000000-0000-4000-8000-00000000000b', role: 'approver', signing: false },
    ];
    const [refund] = decisionMap(compiled(REFUNDS), [CATALOGUE[2] as ToolBinding], { members });
    expect(refund?.bands?.[1]?.outcome).toEqual({
      decision: 'require_approval',
      rule: 'refund-approval',
      code: null,
      approvers: { roles: ['admin', 'approver', 'owner'], users: [] },
      eligible: [admin],
    });
    const [nobody] = decisionMap(compiled(REFUNDS), [CATALOGUE[2] as ToolBinding], { members: [] });
    expect(nobody?.bands?.[1]?.outcome).toEqual({ decision: 'deny', rule: 'refund-approval', code: 'NO_ELIGIBLE_APPROVER' });
  });

  it('reports a tool whose decision depends on arguments as depending, with the rules involved', () => {
    const doc: PolicyDocument = {
      ...REFUNDS,
      rules: [
        ...REFUNDS.rules,
        { id: 'prod-search', actions: ['orders.search'], when: [{ path: '/region', eq: 'eu' }], effect: 'deny' },
        {
          id: 'big-lines',
          actions: ['refund.issue'],
          amount: { currency: 'USD', gt: '500' },
          when: [{ path: '/lines/*/qty', for: 'any', gt: '10' }],
          effect: 'deny',
        },
        // Shadowed: never-rule denies every payout first, so this condition decides nothing.
        { id: 'payout-eu', actions: ['payouts.send'], when: [{ path: '/region', eq: 'eu' }], effect: 'deny' },
      ],
    };
    const map = decisionMap(compiled(doc), CATALOGUE);
    expect(map[1]).toMatchObject({
      decision: 'depends_on_arguments',
      rules: ['prod-search'],
      words: 'search_orders (orders.search): depends on arguments (rules prod-search)',
    });
    expect(map[2]).toMatchObject({ decision: 'depends_on_arguments', rules: ['big-lines'] });
    expect(map[2]?.words).toBe(
      // Up to 500 the rule's amount condition is false, so its argument condition decides nothing there.
      'issue_refund (refund.issue): [0, 100] allow (refund-auto); (100, 500] require approval by roles admin, approver, owner (refund-approval); (500, inf) depends on arguments (rules big-lines); no amount: depends on arguments (rules big-lines)',
    );
    expect(map[3]?.words).toBe('send_payout (payouts.send): deny (never)');
  });

  it('denies every call of an invalid binding, and reads amounts with a currency pointer', () => {
    const tools: ToolBinding[] = [
      { name: 'bad name!', action: 'refund.issue' },
      { name: 'refund_eur', action: 'refund.issue', amount: { pointer: '/amount', currency: 'EUR' } },
      {
        name: 'refund_usd',
        action: 'refund.issue',
        amount: { pointer: '/money/value', currency: 'USD', currency_pointer: '/money/currency' },
      },
    ];
    const map = decisionMap(compiled(REFUNDS), tools);
    expect(map.map((t) => t.words)).toEqual([
      'bad name! (refund.issue): deny (INVALID_TOOL_CONFIGURATION)',
      // No rule names EUR: every amount is unknown to the USD rules, so the deny matches fail-closed.
      'refund_eur (refund.issue): deny (refund-over-limit, fail closed)',
      'refund_usd (refund.issue): [0, 100] allow (refund-auto); (100, 1000] require approval by roles admin, approver, owner (refund-approval); (1000, inf) deny (refund-over-limit); no amount: deny (refund-over-limit, fail closed)',
    ]);
  });

  it('gives every call of a tool the outcome of the band it lies in', () => {
    const policy = compiled(REFUNDS);
    const tool = CATALOGUE[2] as ToolBinding;
    const [entry] = decisionMap(policy, [tool]);
    const amounts = fc.oneof(
      fc.constantFrom('0', '100', '100.000000000000000001', '1000', '1000.5', '99.999999999999999999'),
      fc.bigInt({ min: 0n, max: 5000n }).map(String),
      fc.tuple(fc.nat(2000), fc.nat(999)).map(([i, f]) => `${i}.${String(f).padStart(3, '0')}`),
    );
    fc.assert(
      fc.property(fc.option(amounts, { nil: undefined }), (amount) => {
        const args = amount === undefined ? {} : { amount };
        const band = entry?.bands?.find((b) =>
          b.amount === null ? amount === undefined : amount !== undefined && contains(b.amount, amount),
        );
        const outcome = decideCall(policy, new CompiledTool(tool), args);
        expect(band?.outcome && outcomeKey(band.outcome)).toBe(outcomeKey(outcome));
      }),
      { numRuns: 300 },
    );
  });
});
