// The decision diff on named cases: the demo's revert narrows, its edit widens, approvers, a boundary at
// one point, calls without an amount, wildcard patterns, argument conditions and where they cannot be split.
import { describe, expect, it } from 'vitest';
import refundsExample from '../../../../examples/refunds.policy.json' with { type: 'json' };
import { compilePolicy } from '../policy/compile.ts';
import type { Member, PolicyDocument, PolicyRule, ToolBinding } from '../policy/types.ts';
import { decisionDiff, regionContains } from './decision-diff.ts';
import { impactPreview } from './impact-preview.ts';

const v1 = refundsExample as PolicyDocument;
/** The demo's v2: refunds up to 250 run without approval. */
const v2 = edit(v1, (rules) =>
  rules.map((r) =>
    r.id === 'refund-auto'
      ? { ...r, amount: { currency: 'USD', lte: '250' } }
      : r.id === 'refund-approval'
        ? { ...r, amount: { currency: 'USD', gt: '250', lte: '1000' } }
        : r,
  ),
);

const CATALOGUE: ToolBinding[] = [
  { name: 'read_order', action: 'orders.read' },
  { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'send_payout', action: 'payouts.send', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'read_customer', action: 'customers.read' },
];

function edit(doc: PolicyDocument, change: (rules: PolicyRule[]) => PolicyRule[]): PolicyDocument {
  return { ...doc, rules: change(structuredClone(doc.rules)) };
}

function compiled(doc: unknown) {
  const r = compilePolicy(doc);
  if (!r.ok) throw new Error(`invalid test policy: ${JSON.stringify(r.errors)}`);
  return r.policy;
}

function words(running: unknown, candidate: unknown, tools?: ToolBinding[], members?: Member[]): string[] {
  return decisionDiff(compiled(running), compiled(candidate), tools, members ? { members } : {}).entries.map((e) => e.words);
}

function withApproval(roles: string[], users?: string[]): PolicyDocument {
  return edit(
    v1,
    (rules) =>
      rules.map((r) => (r.id === 'refund-approval' ? { ...r, approvers: { roles, ...(users ? { users } : {}) } } : r)) as PolicyRule[],
  );
}

describe('the decision diff', () => {
  it("says reverting the demo's v2 to v1 narrows refunds in (100, 250], and nothing else", () => {
    const diff = decisionDiff(compiled(v2), compiled(v1));
    expect(diff.entries.map((e) => e.words)).toEqual(['refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)']);
    const [change] = diff.entries;
    expect(change?.kind).toBe('change');
    if (change?.kind !== 'change') return;
    expect(change.from).toMatchObject({ decision: 'allow', rule: 'refund-auto' });
    expect(change.to).toMatchObject({ decision: 'require_approval', rule: 'refund-approval' });
    expect(change.region.amount).toEqual({ lo: '100', loInclusive: false, hi: '250', hiInclusive: true });
    expect(diff).toMatchObject({ narrows: true, widens: false, depends: false });
    // The region's edges: 100 and 250.01 stay as they were, 250 changes.
    const tool = change.witness.tool;
    expect(regionContains(change.region, tool, { amount: '250' })).toBe(true);
    expect(regionContains(change.region, tool, { amount: '100' })).toBe(false);
    expect(regionContains(change.region, tool, { amount: '250.01' })).toBe(false);
    expect(regionContains(change.region, tool, {})).toBe(false);
  });

  it('says the same over the catalogue, naming the tool', () => {
    expect(words(v2, v1, CATALOGUE)).toEqual([
      'issue_refund (refund.issue), amount in (100, 250] USD: allow -> require approval (narrows)',
    ]);
  });

  it("says the demo's v1 to v2 widens", () => {
    expect(words(v1, v2)).toEqual(['refund.issue, amount in (100, 250] USD: require approval -> allow (widens)']);
  });

  it('compares approvers: a superset widens, a subset narrows, neither changes', () => {
    const admin = withApproval(['admin']);
    const adminOwner = withApproval(['admin', 'owner']);
    const owner = withApproval(['owner']);
    const held = 'refund.issue, amount in (100, 1000] USD';
    expect(words(admin, adminOwner)).toEqual([
      `${held}: require approval by role admin -> require approval by role admin, role owner (widens)`,
    ]);
    expect(words(adminOwner, admin)).toEqual([
      `${held}: require approval by role admin, role owner -> require approval by role admin (narrows)`,
    ]);
    expect(words(admin, owner)).toEqual([`${held}: require approval by role admin -> require approval by role owner (changes)`]);
  });

  it('compares the eligible members when members are given', () => {
    const a = '00000000-0000-4000-8000-00000000000a';
    const b = '00000000-0000-4000-8000-00000000000b';
    const members: Member[] = [
      { id: a, role: 'admin', signing: true },
      { id: b, role: 'owner', signing: true },
    ];
    // Naming the owner by id instead of by role admits the same person: no change.
    expect(words(withApproval(['owner']), withApproval(['approver'], [b]), undefined, members)).toEqual([]);
    expect(words(withApproval(['owner']), withApproval(['owner', 'admin']), undefined, members)).toEqual([
      `refund.issue, amount in (100, 1000] USD: require approval by 1 eligible (${b}) -> require approval by 2 eligible (${a}, ${b}) (widens)`,
    ]);
    // Nobody eligible denies, as at the gate.
    expect(words(withApproval(['owner']), withApproval(['approver']), undefined, members)).toEqual([
      'refund.issue, amount in (100, 1000] USD: require approval -> deny (narrows)',
    ]);
  });

  it('finds a gt/gte boundary at exactly one point', () => {
    const limit = (bound: 'gt' | 'gte'): PolicyDocument => ({
      schema: 'tollgate/policy@1',
      default: 'deny',
      rules: [
        { id: 'big', actions: ['refund.issue'], amount: { currency: 'USD', [bound]: '100' }, effect: 'deny' },
        { id: 'small', actions: ['refund.issue'], amount: { currency: 'USD', lte: '1000' }, effect: 'allow' },
      ],
    });
    expect(words(limit('gt'), limit('gte'))).toEqual(['refund.issue, amount = 100 USD: allow -> deny (narrows)']);
    expect(words(limit('gte'), limit('gt'))).toEqual(['refund.issue, amount = 100 USD: deny -> allow (widens)']);
  });

  it('splits at fractional thresholds and finds no change between equal spellings', () => {
    const at = (limit: string) =>
      edit(v1, (rules) =>
        rules.map((r) =>
          r.id === 'refund-auto'
            ? { ...r, amount: { currency: 'USD', lte: limit } }
            : r.id === 'refund-approval'
              ? { ...r, amount: { currency: 'USD', gt: limit, lte: '1000' } }
              : r,
        ),
      );
    expect(words(at('100'), at('100.00'))).toEqual([]);
    // No valid amount lies strictly between the two limits (18 fraction digits at most): one point changes.
    expect(words(at('100'), at('100.000000000000000001'))).toEqual([
      'refund.issue, amount = 100.000000000000000001 USD: require approval -> allow (widens)',
    ]);
    expect(words(at('99.5'), at('100.25'))).toEqual(['refund.issue, amount in (99.5, 100.25] USD: require approval -> allow (widens)']);
  });

  it('reports calls without an amount (fail closed)', () => {
    const withoutCap = edit(v1, (rules) => rules.filter((r) => r.id !== 'refund-over-limit'));
    // Over 1000 the default denies as the removed rule did; without an amount the approval rule now holds.
    expect(words(v1, withoutCap, CATALOGUE)).toEqual(['issue_refund (refund.issue), no amount: deny -> require approval (widens)']);
    expect(words(v1, withoutCap)).toEqual([
      'refund.issue, no amount mapping (and alike: refund.issue, amounts in another currency): deny -> require approval (widens)',
      'refund.issue, no amount: deny -> require approval (widens)',
    ]);
  });

  it('covers actions under a wildcard that no rule names', () => {
    const held = edit(v1, (rules) => [
      ...rules,
      { id: 'payouts-held', actions: ['payouts.*'], effect: 'require_approval', approvers: { roles: ['owner'] } },
    ]);
    const open = edit(held, (rules) => rules.filter((r) => r.id !== 'never'));
    // Removing "never" (payouts.*, customers.export) lets the held rule decide payouts; customers.export
    // falls to the default, which denies as before.
    expect(words(held, open)).toEqual(['payouts.* (an action no rule names): deny -> require approval (widens)']);
    const named = edit(open, (rules) => [...rules, { id: 'send', actions: ['payouts.send'], effect: 'allow' }]);
    expect(words(open, named)).toEqual([]);
    expect(words(held, named)).toEqual([
      'payouts.send: deny -> require approval (widens)',
      'payouts.* (an action no rule names): deny -> require approval (widens)',
    ]);
  });

  it('splits on argument conditions and says which hold', () => {
    const prod = edit(v1, (rules) => [
      ...rules,
      { id: 'prod-refunds', actions: ['refund.issue'], when: [{ path: '/env', eq: 'prod' }], effect: 'deny' },
    ]);
    const diff = decisionDiff(compiled(v1), compiled(prod), CATALOGUE);
    const env = '(/env unreadable (missing or another type) or /env eq "prod")';
    expect(diff.entries.map((e) => e.words)).toEqual([
      `issue_refund (refund.issue), amount in [0, 100] USD, ${env}: allow -> deny (narrows)`,
      `issue_refund (refund.issue), amount in (100, 1000] USD, ${env}: require approval -> deny (narrows)`,
    ]);
    const [small] = diff.entries;
    if (small?.kind !== 'change') throw new Error('expected a change');
    const tool = CATALOGUE[1] as ToolBinding;
    expect(regionContains(small.region, tool, { amount: '50', env: 'prod' })).toBe(true);
    expect(regionContains(small.region, tool, { amount: 50 })).toBe(true);
    expect(regionContains(small.region, tool, { amount: '50', env: 5 })).toBe(true);
    expect(regionContains(small.region, tool, { amount: '50', env: 'dev' })).toBe(false);
    expect(regionContains(small.region, tool, { amount: '150', env: 'prod' })).toBe(false);
  });

  it('says a region depends on arguments where the split is not complete, never guessing', () => {
    const lines = edit(v1, (rules) => [
      ...rules,
      { id: 'bulk', actions: ['refund.issue'], when: [{ path: '/lines/*/qty', for: 'all', gt: '10' }], effect: 'deny' },
    ]);
    const diff = decisionDiff(compiled(v1), compiled(lines), CATALOGUE);
    expect(diff.depends).toBe(true);
    expect(diff.entries.map((e) => e.words)).toEqual([
      'issue_refund (refund.issue), amount in [0, inf) USD: may change, depends on arguments (rules bulk; the condition on /lines/*/qty selects array elements, which are not enumerated)',
      'issue_refund (refund.issue), no amount: may change, depends on arguments (rules bulk; the condition on /lines/*/qty selects array elements, which are not enumerated)',
    ]);
  });

  it('states every concrete region however many classes, and refuses past its budget with nothing partial', () => {
    const two = edit(v1, (rules) => [
      ...rules,
      {
        id: 'two',
        actions: ['orders.read'],
        when: [
          { path: '/env', eq: 'prod' },
          { path: '/region', in: ['eu', 'us'] },
        ],
        effect: 'deny',
      },
    ]);
    const tools = [CATALOGUE[0] as ToolBinding];
    expect(decisionDiff(compiled(v1), compiled(two), tools).entries.map((e) => e.words)).toEqual([
      'read_order (orders.read), (/env unreadable (missing or another type) or /env eq "prod"), (/region unreadable (missing or another type) or /region in ["eu","us"]): allow -> deny (narrows)',
    ]);
    expect(() => decisionDiff(compiled(v1), compiled(two), tools, { maxRegions: 1 })).toThrow(
      expect.objectContaining({ code: 'ANALYSIS_OVER_BUDGET', limit: 'regions' }),
    );
    expect(() => decisionDiff(compiled(v1), compiled(two), tools, { deadline: Date.now() - 1 })).toThrow(
      expect.objectContaining({ code: 'ANALYSIS_OVER_BUDGET', limit: 'time' }),
    );
    const cancelled = new AbortController();
    cancelled.abort();
    expect(() => decisionDiff(compiled(v1), compiled(two), tools, { signal: cancelled.signal })).toThrow(
      expect.objectContaining({ code: 'ANALYSIS_CANCELLED' }),
    );
  });
});

describe('the impact preview', () => {
  it("names the tools whose decision changes, from what to what, for the demo's revert", () => {
    const preview = impactPreview(compiled(v2), compiled(v1), CATALOGUE);
    expect(preview.unchanged).toEqual(['read_order', 'send_payout', 'read_customer']);
    expect(preview.tools.map((t) => [t.tool, t.running.words, t.candidate.words, t.changes.map((c) => c.words)])).toEqual([
      [
        'issue_refund',
        'issue_refund (refund.issue): [0, 250] allow (refund-auto); (250, 1000] require approval by roles admin, approver, owner (refund-approval); (1000, inf) deny (refund-over-limit); no amount: deny (refund-over-limit, fail closed)',
        'issue_refund (refund.issue): [0, 100] allow (refund-auto); (100, 1000] require approval by roles admin, approver, owner (refund-approval); (1000, inf) deny (refund-over-limit); no amount: deny (refund-over-limit, fail closed)',
        ['issue_refund (refund.issue), amount in (100, 250] USD: allow -> require approval (narrows)'],
      ],
    ]);
    expect(preview).toMatchObject({ widens: false, narrows: true, depends: false });
  });
});
