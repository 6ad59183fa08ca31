// Policy impact by the decisions the versions give: widenings in the decision diff's words, narrowings and
// identity never flagged, lifetimes and guards rule by rule; and properties over generated policies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CompiledPolicy, compilePolicy } from '../policy/compile.ts';
import { CompiledTool } from '../policy/tool.ts';
import type { PolicyDocument, PolicyRule } from '../policy/types.ts';
import { analyzePolicyImpact } from './impact-policy.ts';

const USER_A = '11111111-1111-4111-8111-111111111111';

const RUNNING: PolicyDocument = {
  schema: 'tollgate/policy@1',
  default: 'deny',
  rules: [
    { id: 'refund-auto', actions: ['refund.issue'], amount: { currency: 'USD', lte: '100' }, effect: 'allow' },
    {
      id: 'refund-approval',
      actions: ['refund.issue'],
      amount: { currency: 'USD', gt: '100', lte: '1000' },
      effect: 'require_approval',
      approvers: { roles: ['owner', 'admin'], users: [USER_A] },
      approval_ttl_seconds: 3600,
      guard: true,
    },
    { id: 'refund-over-limit', actions: ['refund.issue'], amount: { currency: 'USD', gt: '1000' }, effect: 'deny' },
    { id: 'read-orders', actions: ['orders.read'], tools: ['lookup_order'], effect: 'allow' },
    {
      id: 'prod-deploys',
      actions: ['deploy.*'],
      when: [{ path: '/env', eq: 'production' }],
      effect: 'require_approval',
      approvers: { roles: ['owner'] },
    },
    { id: 'never', actions: ['customers.delete'], effect: 'deny' },
    {
      id: 'staging',
      actions: ['deploy.run'],
      when: [
        { path: '/env', in: ['staging', 'qa'] },
        { path: '/size', lte: '10' },
      ],
      effect: 'allow',
    },
  ],
};

const text = (doc: PolicyDocument) => JSON.stringify(doc, null, 2);

/** The running document with one rule changed (or removed, when `change` returns undefined). */
function edit(id: string, change: (rule: PolicyRule) => PolicyRule | undefined, doc: PolicyDocument = RUNNING): PolicyDocument {
  const rules: PolicyRule[] = [];
  for (const rule of doc.rules) {
    const next = rule.id === id ? change(structuredClone(rule)) : rule;
    if (next) rules.push(next);
  }
  return { ...doc, rules };
}

function subjects(after: PolicyDocument, before: PolicyDocument = RUNNING, orgTtl?: number): string[] {
  const impact = analyzePolicyImpact(text(before), text(after), orgTtl === undefined ? {} : { defaultApprovalTtlSeconds: orgTtl });
  expect(impact.widensSecurity).toBe(impact.widenedSubjects.length > 0);
  return impact.widenedSubjects;
}

const REFUND = 'refund.issue (and alike: refund.issue via tool lookup_order)';
const rule = (id: string) => RUNNING.rules.find((r) => r.id === id) as PolicyRule;

describe("policy impact: widenings, in the decision diff's words", () => {
  it("the demo's v2 widens, and its revert only narrows", () => {
    const v2 = edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', lte: '250' } }));
    const wide = edit('refund-approval', (r) => ({ ...r, amount: { currency: 'USD', gt: '250', lte: '1000' } }), v2);
    // The running document names a tool (read-orders' lookup_order), so refund.issue's calls through it are alike.
    expect(subjects(wide)).toEqual([`${REFUND}, amount in (100, 250] USD: require approval -> allow (widens)`]);
    expect(analyzePolicyImpact(text(wide), text(RUNNING))).toEqual({
      widensSecurity: false,
      widenedSubjects: [],
      changes: [`${REFUND}, amount in (100, 250] USD: allow -> require approval (narrows)`],
    });
  });

  it('an allow rule whose wider bound another rule still holds changes no call', () => {
    // Most restrictive wins: refund-approval still holds (100, 250], so raising refund-auto alone decides nothing new.
    const v = edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', lte: '250' } }));
    expect(analyzePolicyImpact(text(RUNNING), text(v))).toEqual({ widensSecurity: false, widenedSubjects: [], changes: [] });
  });

  it('a default relaxed', () => {
    const widened = subjects({ ...RUNNING, default: 'require_approval' });
    expect(widened.length).toBeGreaterThan(0);
    expect(widened.every((s) => s.includes('deny -> require approval (widens)'))).toBe(true);
  });

  it('an effect changed toward allow; a deny removed where the default denies too changes nothing', () => {
    expect(subjects(edit('never', (r) => ({ ...r, effect: 'require_approval', approvers: { roles: ['owner'] } })))).toEqual([
      'customers.delete (and alike: customers.delete via tool lookup_order): deny -> require approval (widens)',
    ]);
    expect(subjects(edit('never', () => undefined))).toEqual([]);
  });

  it('approvers widened', () => {
    const wider = edit('refund-approval', (r) => ({ ...r, approvers: { roles: ['owner', 'admin', 'approver'], users: [USER_A] } }));
    expect(subjects(wider)).toHaveLength(1);
    expect(subjects(wider)[0]).toBe(
      `${REFUND}, amount in (100, 1000] USD: require approval by role admin, role owner, user ${USER_A} -> require approval by role admin, role approver, role owner, user ${USER_A} (widens)`,
    );
  });

  it('a TTL lengthened, or removed where the organisation default is longer', () => {
    expect(subjects(edit('refund-approval', (r) => ({ ...r, approval_ttl_seconds: 14400 })))).toEqual([
      'rules/refund-approval approval_ttl_seconds 3600 -> 14400',
    ]);
    expect(subjects(edit('refund-approval', ({ approval_ttl_seconds: _, ...r }) => r))).toEqual([
      'rules/refund-approval approval_ttl_seconds 3600 removed (org default 86400)',
    ]);
    expect(
      subjects(
        edit('refund-approval', ({ approval_ttl_seconds: _, ...r }) => r),
        RUNNING,
        600,
      ),
    ).toEqual([]);
    expect(subjects(edit('prod-deploys', (r) => ({ ...r, approval_ttl_seconds: 172800 })))).toEqual([
      'rules/prod-deploys approval_ttl_seconds default 86400 -> 172800',
    ]);
  });

  it('a guard removed', () => {
    expect(subjects(edit('refund-approval', ({ guard: _, ...r }) => r))).toEqual(['rules/refund-approval guard removed']);
  });

  it('an approval that holds calls the running default denied', () => {
    const added: PolicyRule = { id: 'payouts', actions: ['payouts.send'], effect: 'require_approval', approvers: { roles: ['owner'] } };
    expect(subjects({ ...RUNNING, rules: [...RUNNING.rules, added] })).toEqual([
      'payouts.send (and alike: payouts.send via tool lookup_order): deny -> require approval (widens)',
    ]);
    // Under a require_approval default those calls were held already (by the same approvers or others).
    const held = { ...RUNNING, default: 'require_approval' as const };
    expect(analyzePolicyImpact(text(held), text({ ...held, rules: [...RUNNING.rules, added] })).changes).not.toContainEqual(
      expect.stringContaining('deny -> require approval'),
    );
  });
});

describe('policy impact: narrowings and identity are never flagged', () => {
  const twoTools = edit('read-orders', (r) => ({ ...r, tools: ['lookup_order', 'export_orders'] }));
  const softDeny = edit('never', (r) => ({ ...r, when: [{ path: '/soft', eq: false }] }));
  const held = { ...RUNNING, default: 'require_approval' as const };
  it.each([
    ['an allow removed', RUNNING, edit('read-orders', () => undefined)],
    ['an allow bound lowered', RUNNING, edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', lte: '50' } }))],
    ['an allow condition added', RUNNING, edit('read-orders', (r) => ({ ...r, when: [{ path: '/region', eq: 'eu' }] }))],
    ['an allow tool removed', twoTools, RUNNING],
    [
      'an allow condition tightened',
      RUNNING,
      edit('staging', (r) => ({
        ...r,
        when: [
          { path: '/env', in: ['qa'] },
          { path: '/size', lte: '5' },
        ],
      })),
    ],
    [
      'a deny added',
      RUNNING,
      { ...RUNNING, rules: [...RUNNING.rules, { id: 'no-payouts', actions: ['payouts.*'], effect: 'deny' as const }] },
    ],
    ['a deny broadened', RUNNING, edit('never', (r) => ({ ...r, actions: ['customers.*'] }))],
    ['a deny bound lowered', RUNNING, edit('refund-over-limit', (r) => ({ ...r, amount: { currency: 'USD', gt: '500' } }))],
    ['a deny condition dropped', softDeny, RUNNING],
    ['an approval condition dropped under a require_approval default', held, edit('prod-deploys', ({ when: _, ...r }) => r, held)],
    ['an effect made stricter', RUNNING, edit('read-orders', (r) => ({ ...r, effect: 'deny' }))],
    ['approvers narrowed', RUNNING, edit('refund-approval', (r) => ({ ...r, approvers: { roles: ['owner'] } }))],
    ['a TTL shortened', RUNNING, edit('refund-approval', (r) => ({ ...r, approval_ttl_seconds: 600 }))],
    ['a guard added', RUNNING, edit('prod-deploys', (r) => ({ ...r, guard: true }))],
    ['a default tightened', held, RUNNING],
  ])('%s', (_name, before, after) => {
    expect(subjects(after, before)).toEqual([]);
  });

  it('an identical document, however reformatted', () => {
    expect(subjects(RUNNING)).toEqual([]);
    expect(analyzePolicyImpact(JSON.stringify(RUNNING), text(RUNNING))).toEqual({
      widensSecurity: false,
      widenedSubjects: [],
      changes: [],
    });
  });

  it('a text that does not load', () => {
    const none = { widensSecurity: false, widenedSubjects: [], changes: [] };
    expect(analyzePolicyImpact(text(RUNNING), '{"schema": ')).toEqual(none);
    expect(analyzePolicyImpact(text(RUNNING), text(RUNNING).replace('"default": "deny"', '"default": "allow"'))).toEqual(none);
  });
});

describe('policy impact: a new document', () => {
  it('flags only what it allows', () => {
    const impact = analyzePolicyImpact(undefined, text({ ...RUNNING, default: 'require_approval' }));
    expect(impact.widensSecurity).toBe(true);
    expect(impact.widenedSubjects).toContain(`${REFUND}, amount in [0, 100] USD: deny -> allow (widens)`);
    expect(impact.widenedSubjects.every((s) => /-> allow \(widens\)$|depends on arguments/.test(s))).toBe(true);
    expect(analyzePolicyImpact(undefined, text({ ...RUNNING, rules: [rule('never')] })).widensSecurity).toBe(false);
  });
});

// Generated policies: small, valid, with every dimension a rule has.
const decimal = fc.integer({ min: 0, max: 2000 }).map(String);
const ruleArb = (id: string) =>
  fc
    .record({
      actions: fc.subarray(['refund.issue', 'refund.*', 'orders.read', 'deploy.run', '*'], { minLength: 1 }),
      tools: fc.option(fc.subarray(['a', 'b', 'c'], { minLength: 1 }), { nil: undefined }),
      upper: fc.option(decimal, { nil: undefined }),
      lower: fc.option(decimal, { nil: undefined }),
      env: fc.option(fc.subarray(['dev', 'qa', 'prod'], { minLength: 1 }), { nil: undefined }),
      effect: fc.constantFrom('allow', 'require_approval', 'deny'),
      ttl: fc.option(fc.integer({ min: 60, max: 200000 }), { nil: undefined }),
    })
    .map(({ actions, tools, upper, lower, env, effect, ttl }): PolicyRule => {
      const r: PolicyRule = { id, actions, effect };
      if (tools) r.tools = tools;
      if (upper !== undefined || lower !== undefined) {
        const lo = lower ?? '0';
        const hi = upper === undefined ? undefined : String(Math.max(Number(upper), Number(lo)));
        r.amount = { currency: 'USD', gte: lo, ...(hi === undefined ? {} : { lte: hi }) };
      }
      if (env) r.when = [{ path: '/env', in: env }];
      if (effect === 'require_approval') {
        r.approvers = { roles: ['owner'] };
        if (ttl !== undefined) r.approval_ttl_seconds = ttl;
      }
      return r;
    });
const policyArb = fc
  .tuple(fc.constantFrom('deny', 'require_approval'), fc.array(fc.nat(), { maxLength: 5 }))
  .chain(([def, ids]) =>
    fc
      .tuple(fc.constant(def), fc.tuple(...ids.map((_, i) => ruleArb(`r${i}`))))
      .map(([d, rules]): PolicyDocument => ({ schema: 'tollgate/policy@1', default: d as PolicyDocument['default'], rules })),
  );

describe('policy impact: properties', () => {
  it('an identical document never widens', () => {
    fc.assert(
      fc.property(policyArb, (doc) => {
        expect(analyzePolicyImpact(text(doc), JSON.stringify(doc))).toEqual({ widensSecurity: false, widenedSubjects: [], changes: [] });
      }),
      { numRuns: 300 },
    );
  });

  it("tightening any allow rule's upper bound never widens", () => {
    fc.assert(
      fc.property(policyArb, fc.nat(), fc.integer({ min: 1, max: 500 }), (doc, pick, cut) => {
        const allows = doc.rules.filter((r) => r.effect === 'allow');
        fc.pre(allows.length > 0);
        const target = allows[pick % allows.length] as PolicyRule;
        const lower = target.amount?.gte ?? '0';
        const upper = target.amount?.lte ?? String(Number(lower) + cut);
        const tightened = String(Math.max(Number(lower), Number(upper) - cut));
        const after = edit(target.id, (r) => ({ ...r, amount: { currency: 'USD', gte: lower, lte: tightened } }), doc);
        expect(subjects(after, doc)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('removing any allow rule, or adding a deny rule, never widens', () => {
    fc.assert(
      fc.property(policyArb, ruleArb('extra'), (doc, extra) => {
        for (const r of doc.rules.filter((x) => x.effect === 'allow'))
          expect(
            subjects(
              edit(r.id, () => undefined, doc),
              doc,
            ),
          ).toEqual([]);
        const deny: PolicyRule = { ...extra, effect: 'deny' };
        delete deny.approvers;
        delete deny.approval_ttl_seconds;
        expect(subjects({ ...doc, rules: [...doc.rules, deny] }, doc)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('every call the new version decides more permissively is flagged (fail-closed soundness)', () => {
    const RANK = { deny: 0, require_approval: 1, allow: 2 } as const;
    const callArb = fc.record({
      action: fc.constantFrom('refund.issue', 'refund.void', 'orders.read', 'deploy.run', 'other.thing'),
      tool: fc.constantFrom('a', 'b', 'c', 'x'),
      amount: fc.option(fc.integer({ min: 0, max: 2100 }), { nil: undefined }),
      env: fc.option(fc.constantFrom('dev', 'qa', 'prod', 'else'), { nil: undefined }),
    });
    fc.assert(
      fc.property(policyArb, policyArb, callArb, (a, b, call) => {
        const [before, after] = [a, b].map((d) => {
          const compiled = compilePolicy(d);
          if (!compiled.ok) throw new Error('a generated policy does not compile');
          return compiled.policy;
        });
        const amount = call.amount === undefined ? undefined : { pointer: '/amount', currency: 'USD' };
        const tool = new CompiledTool({ name: call.tool, action: call.action, ...(amount ? { amount } : {}) });
        const args = {
          ...(call.amount === undefined ? {} : { amount: call.amount }),
          ...(call.env === undefined ? {} : { env: call.env }),
        };
        const was = (before as CompiledPolicy).decide(tool, args).decision;
        const now = (after as CompiledPolicy).decide(tool, args).decision;
        if (RANK[now] > RANK[was]) expect(analyzePolicyImpact(text(a), text(b)).widensSecurity).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
