// Differential: the gate decided from parts prepared once (prepareGate, decidePrepared) agrees exactly with
// the gate as first written (decide-call.reference.ts: catalogue searched, tool compiled, overlays laid and
// dates parsed per call) on freshly compiled parts, over generated agents and calls.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import refundsExample from '../../../../examples/refunds.policy.json' with { type: 'json' };
import type { Delegation } from '../documents/agent.ts';
import type { ObserveWindow } from '../documents/settings.ts';
import { compilePolicy } from '../policy/compile.ts';
import type { Member, PolicyDocument } from '../policy/types.ts';
import { readCatalogue } from '../rulebook/catalogue.ts';
import { compileRules } from '../sheet/compile.ts';
import { referenceDecideCall } from './decide-call.reference.ts';
import {
  type DecideCallInput,
  decideCall,
  decidePrepared,
  GATE_CODES,
  type GateCall,
  type GatePolicy,
  type GateRuleset,
} from './decide-call.ts';
import { callReadsHistory, type GateParts, prepareGate } from './prepare-gate.ts';

const REFUNDS = refundsExample as PolicyDocument;
const CATALOGUE = `tools:
  - { name: read_order, action: orders.read, kind: read }
  - { name: issue_refund, action: refund.issue, kind: write, amount: { pointer: /amount, currency: USD } }
  - { name: send_payout, action: payouts.send, kind: write, amount: { pointer: /amount, currency: USD }, confirmation: "Send it?" }
  - { name: export_customers, action: customers.export, kind: write, requires_confirmation: true }
  - { name: charge_eur, action: refund.issue, kind: write, amount: { pointer: /payment/amount, currency: EUR, currency_pointer: /payment/currency } }
  - name: ship_order
    action: orders.ship
    kind: write
    after: [read_order]
    at_most: 2
    checks:
      - { field: quantity, at_most: 10 }
      - { field: country, in: [DE, FR] }
`;
const SHEET = `rules:
  - action: issue_refund
    at_most: 2
    requires: [supervisor_approved]
    when: { amount_over: 200 }
  - action: send_payout
    requires_confirmation: true
  - action: export_customers
    never: true
  - action: ship_order
    not_after: [export_customers]
    confirmation: "Ship it?"
`;
const PINNED_SHEETS = [
  'rules:\n  - action: issue_refund\n    never: true\n',
  'rules:\n  - action: issue_refund\n    requires_confirmation: true\n',
  'rules:\n  - action: read_order\n    at_most: 3\n',
];

const catalogueText = (broken: boolean) => (broken ? `${CATALOGUE}  - { name: bad_tool, action: refund.issue, kind: write }\n` : CATALOGUE);
function catalogueOf(broken: boolean) {
  const r = readCatalogue(catalogueText(broken), 'yaml');
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  if (!broken) return r.catalogue;
  // An amount mapping that is itself invalid (a catalogue read elsewhere).
  const bad = r.catalogue.tools.find((t) => t.name === 'bad_tool');
  if (bad) bad.amount = { pointer: 'nope', currency: 'usd' };
  return r.catalogue;
}
function rulesOf(text: string, kind: 'sheet' | 'colang' = 'sheet') {
  const r = compileRules(text, kind);
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return r;
}

const POLICY_DOCS: Record<string, unknown> = {
  refunds: REFUNDS,
  allowAll: { schema: 'tollgate/policy@1', default: 'deny', rules: [{ id: 'all', actions: ['*'], effect: 'allow' }] },
  denyRefunds: { schema: 'tollgate/policy@1', default: 'deny', rules: [{ id: 'no-refunds', actions: ['refund.*'], effect: 'deny' }] },
  guarded: { ...REFUNDS, rules: REFUNDS.rules.map((r) => (r.id === 'refund-approval' ? { ...r, guard: true } : r)) },
  conditions: {
    schema: 'tollgate/policy@1',
    default: 'require_approval',
    rules: [
      { id: 'ship-many', actions: ['orders.ship'], effect: 'deny', when: [{ path: '/quantity', gt: '5' }] },
      {
        id: 'eur-held',
        actions: ['refund.issue'],
        effect: 'require_approval',
        amount: { currency: 'EUR', gt: '10' },
        approvers: { roles: ['owner'] },
        approval_ttl_seconds: 60,
      },
      {
        id: 'reasoned',
        actions: ['refund.*', 'orders.*'],
        effect: 'allow',
        description: 'A reason is given.',
        when: [{ path: '/reason', in: ['damaged', 'late'] }],
      },
    ],
  },
};

const OWNER = '00000000-0000-4000-8000-000000000001';
const MEMBERS: Record<string, Member[]> = {
  all: [
    { id: OWNER, role: 'owner', signing: true },
    { id: '00000000-0000-4000-8000-000000000002', role: 'admin', signing: true },
    { id: '00000000-0000-4000-8000-000000000003', role: 'approver', signing: false },
    { id: '00000000-0000-4000-8000-000000000005', role: 'viewer', signing: true },
  ],
  viewers: [{ id: '00000000-0000-4000-8000-000000000005', role: 'viewer', signing: true }],
  many: Array.from({ length: 40 }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(100 + i).padStart(12, '0')}`,
    role: 'approver' as const,
    signing: true,
  })),
};

const NOWS = ['2026-01-01T00:00:00Z', '2026-01-01T00:59:59.999Z', '2026-06-01T12:00:00Z', '2025-12-31T00:00:00Z'];
const WINDOWS: ObserveWindow[] = [
  { name: 'launch', starts: '2025-12-31T00:00:00Z', ends: '2026-01-02T00:00:00Z', relax: 'approvals' },
  { name: 'shadow', starts: '2025-12-31T00:00:00Z', ends: '2026-01-01T00:00:00Z', relax: 'denials' },
  { name: 'summer', starts: '2026-05-01T00:00:00+02:00', ends: '2026-07-01T00:00:00Z', relax: 'denials' },
  { name: 'broken', starts: 'yesterday', ends: '2027-01-01T00:00:00Z', relax: 'denials' },
];

/** An agent's parts as names into the pools above; compiled afresh for each side. */
interface Spec {
  broken: boolean;
  rulebook: 'none' | 'sheet' | 'colang';
  pinned: number[];
  policies: string[];
  ruleset: GateRuleset | undefined;
  approved: string[] | undefined;
  windows: number[];
  delegation: Delegation;
  ttl: number | undefined;
  disclosure: 'none' | 'rule' | 'conditions' | undefined;
  unauthorized?: string[] | undefined;
  languageRevision?: 1 | 2 | 3 | undefined;
}

/** Undefined three times in four: the gate's early refusals would otherwise decide most calls. */
function rarely<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
}

const specArb: fc.Arbitrary<Spec> = fc.record({
  broken: fc.boolean(),
  rulebook: fc.constantFrom('none', 'sheet', 'colang'),
  pinned: fc.subarray([0, 1, 2]),
  policies: fc.oneof(fc.constant<string[]>(['refunds']), fc.shuffledSubarray(Object.keys(POLICY_DOCS), { minLength: 0, maxLength: 3 })),
  ruleset: rarely(
    fc.record(
      {
        document: fc.constant('rulesets/support.ruleset.json'),
        version: fc.integer({ min: 1, max: 3 }),
        status: fc.constantFrom('active', 'test', 'draft', 'archived', 'disabled'),
        draftVersion: fc.boolean(),
        replaced_by: fc.constant('rulesets/support-v2.ruleset.json'),
        unusableRules: fc.subarray(['policies/a.policy.json', 'sheets/b.rules.yaml']),
      },
      { requiredKeys: ['document', 'version', 'status'] },
    ),
  ),
  approved: rarely(fc.subarray(['rulesets/support.ruleset.json', 'rulesets/support.ruleset.json@2', 'rulesets/other.ruleset.json'])),
  windows: fc.subarray([0, 1, 2, 3]),
  delegation: fc
    .record({
      actions: fc.oneof(
        { arbitrary: fc.constant<string[]>(['*']), weight: 3 },
        { arbitrary: fc.subarray(['orders.*', 'refund.issue', 'payouts.send', 'customers.*', 'refund.*'], { minLength: 1 }), weight: 1 },
      ),
      valid_until: rarely(fc.constantFrom('2026-01-01T01:00:00Z', '2025-12-31T23:59:59Z', '2027-01-01T00:00:00Z', 'soon')),
      spending_limit: rarely(fc.constantFrom({ amount: '5000', currency: 'USD' }, { amount: '100', currency: 'EUR' })),
    })
    .map(({ actions, valid_until, spending_limit }) => {
      const d: Delegation = { actions };
      if (valid_until !== undefined) d.valid_until = valid_until;
      if (spending_limit !== undefined) d.spending_limit = spending_limit;
      return d;
    }),
  ttl: fc.option(fc.constantFrom(60, 86_400), { nil: undefined }),
  disclosure: fc.constantFrom('none', 'rule', 'conditions', undefined),
  unauthorized: rarely(fc.subarray(['issue_refund', 'read_order', 'bad_tool', 'nope'], { minLength: 1 })),
  // A node capped below a policy's revision denies every call, so the cap is rarer still.
  languageRevision: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 9 },
    { arbitrary: fc.constantFrom<1 | 2 | 3>(1, 2, 3), weight: 1 },
  ),
});

const amountArb = fc.oneof(
  { arbitrary: fc.constantFrom('50', '500', '5000', '5000.000', '5000.01', '100', '1000.5', '20.25'), weight: 3 },
  { arbitrary: fc.integer({ min: 0, max: 6000 }), weight: 2 },
  { arbitrary: fc.constantFrom('-5', '1e3', 'abc', '', ' 5', -1, 1.5, Number.MAX_SAFE_INTEGER + 2, null, true, [], {}), weight: 1 },
);
const argsArb = fc.record(
  {
    amount: amountArb,
    payment: fc.record({ amount: amountArb, currency: fc.constantFrom('EUR', 'USD', 'eur') }, { requiredKeys: [] }),
    quantity: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom('3', 'many')),
    country: fc.constantFrom('DE', 'FR', 'US'),
    reason: fc.constantFrom('damaged', 'late', 'other'),
  },
  { requiredKeys: [] },
);
const TOOLS = ['read_order', 'issue_refund', 'send_payout', 'export_customers', 'charge_eur', 'ship_order', 'bad_tool', 'nope'];
const callArb: fc.Arbitrary<GateCall> = fc.record(
  {
    tool: fc.constantFrom(...TOOLS),
    arguments: argsArb,
    history: fc.array(
      fc.record({ tool: fc.constantFrom('read_order', 'issue_refund', 'ship_order', 'export_customers'), arguments: fc.constant({}) }),
      {
        maxLength: 4,
      },
    ),
    contexts: fc.record({ supervisor_approved: fc.boolean() }, { requiredKeys: [] }),
    confirmed: fc.boolean(),
    definition: fc.constantFrom('authorized' as const, 'changed' as const),
  },
  { requiredKeys: ['tool', 'arguments'] },
);
const momentArb = fc.record({
  call: callArb,
  now: fc.constantFrom(...NOWS),
  members: fc.constantFrom(...Object.keys(MEMBERS)),
});

/** Compiles a spec's parts afresh: nothing shared between the two sides but the plain documents. */
function partsOf(spec: Spec): GateParts {
  const policies: GatePolicy[] = spec.policies.map((name, i) => {
    const r = compilePolicy(POLICY_DOCS[name]);
    if (!r.ok) throw new Error(`${name}: ${JSON.stringify(r.errors)}`);
    return { document: `policies/${name}.policy.json`, sequence: i + 1, policy: r.policy };
  });
  const own =
    spec.rulebook === 'sheet'
      ? rulesOf(SHEET)
      : spec.rulebook === 'colang'
        ? rulesOf('define flow export_customers\n  refuse\n', 'colang')
        : undefined;
  return {
    catalogue: catalogueOf(spec.broken),
    rulebook: own?.rulebook,
    overlay: own?.overlay,
    rulebooks: spec.pinned.map((i) => {
      const r = rulesOf(PINNED_SHEETS[i] as string);
      return { document: `sheets/pinned-${i}.rules.yaml`, sequence: 1, rulebook: r.rulebook, ...(r.overlay ? { overlay: r.overlay } : {}) };
    }),
    policies,
    ruleset: spec.ruleset,
    approvedRulesets: spec.approved,
    observeWindows: spec.windows.map((i) => WINDOWS[i] as ObserveWindow),
    delegation: spec.delegation,
    defaultApprovalTtlSeconds: spec.ttl,
    disclosure: spec.disclosure,
    ...(spec.unauthorized !== undefined ? { unauthorizedTools: spec.unauthorized } : {}),
    ...(spec.languageRevision !== undefined ? { languageRevision: spec.languageRevision } : {}),
  };
}

describe('decidePrepared', () => {
  it('agrees with the gate as first written on generated agents and calls, one preparation for many calls', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(specArb, fc.array(momentArb, { minLength: 1, maxLength: 25 }), (spec, moments) => {
        const prepared = prepareGate(partsOf(spec));
        const fresh = partsOf(spec);
        for (const m of moments) {
          const input: DecideCallInput = { ...fresh, call: m.call, now: new Date(m.now), members: MEMBERS[m.members] as Member[] };
          const expected = referenceDecideCall(input);
          const got = decidePrepared(prepared, { call: m.call, now: new Date(m.now), members: MEMBERS[m.members] as Member[] });
          expect(got).toStrictEqual(expected);
          expect(decideCall(input)).toStrictEqual(expected);
          // A host may leave the history out where the gate says the call does not read it (callReadsHistory).
          const reads = callReadsHistory(prepared, m.call.tool);
          const call = reads ? m.call : { ...m.call, history: [] };
          expect(decidePrepared(prepared, { call, now: new Date(m.now), members: MEMBERS[m.members] as Member[] })).toStrictEqual(expected);
          if (!reads && (m.call.history?.length ?? 0) > 0) seen.set('history left out', (seen.get('history left out') ?? 0) + 1);
          const blind = decidePrepared(prepared, {
            call: { ...m.call, history: [] },
            now: new Date(m.now),
            members: MEMBERS[m.members] as Member[],
          });
          if (reads && blind.code !== expected.code) seen.set('history needed', (seen.get('history needed') ?? 0) + 1);
          for (const key of [expected.code ?? expected.decision, expected.decision, expected.observed ? 'observed' : 'not observed']) {
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
        }
      }),
      { numRuns: 300, seed: 8 },
    );
    // The generators reach every stage of the gate.
    for (const code of [
      ...Object.keys(GATE_CODES),
      'NEVER',
      'AT_MOST_EXCEEDED',
      'DEFAULT',
      'allow',
      'require_approval',
      'NO_ELIGIBLE_APPROVER',
      'TOO_MANY_APPROVERS',
      'observed',
      'history left out',
      'history needed',
    ]) {
      expect(seen.get(code) ?? 0, code).toBeGreaterThan(0);
    }
  });

  it('leaves the prepared parts as they were: a result changed by its caller changes no later one', () => {
    const spec: Spec = {
      broken: false,
      rulebook: 'sheet',
      pinned: [],
      policies: ['refunds'],
      ruleset: undefined,
      approved: undefined,
      windows: [],
      delegation: { actions: ['*'] },
      ttl: undefined,
      disclosure: 'conditions',
    };
    const prepared = prepareGate(partsOf(spec));
    const moment = {
      call: { tool: 'issue_refund', arguments: { amount: '500' }, contexts: { supervisor_approved: true } },
      now: new Date(NOWS[0] as string),
    };
    const first = decidePrepared(prepared, { ...moment, members: MEMBERS.all as Member[] });
    const again = structuredClone(first);
    first.notice.description = 'changed';
    first.approval?.approvers.push('someone');
    first.policies[0]?.decision.explanation.fail_closed.push({ rule: 'x', effect: 'deny', reasons: [] });
    if (first.notice.amount) first.notice.amount.bounds.gt = '0';
    expect(decidePrepared(prepared, { ...moment, members: MEMBERS.all as Member[] })).toStrictEqual(again);
  });
});
