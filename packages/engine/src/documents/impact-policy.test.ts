// Policy impact: each widening the issue names, with its exact subject; narrowings and identity never
// flagged; and properties over generated policies.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PolicyDocument, PolicyRule } from '../policy/types.ts';
import { analyzePolicyImpact } from './impact-policy.ts';

const USER_A = '11111111-1111-4111-8111-111111111111';
const USER_B = '22222222-2222-4222-8222-222222222222';

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

const rule = (id: string) => RUNNING.rules.find((r) => r.id === id) as PolicyRule;

describe('policy impact: widenings, each with its subject', () => {
  it('a default relaxed', () => {
    expect(subjects({ ...RUNNING, default: 'require_approval' })).toEqual(['default deny -> require_approval']);
  });

  it('an allow rule added', () => {
    const added: PolicyRule = { id: 'export', actions: ['orders.export'], effect: 'allow' };
    expect(subjects({ ...RUNNING, rules: [...RUNNING.rules, added] })).toEqual(['rules/export added']);
  });

  it('an allow upper bound raised, removed, or the amount dropped; a lower bound lowered', () => {
    expect(subjects(edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', lte: '250' } })))).toEqual([
      'rules/refund-auto amount lte 100 -> 250',
    ]);
    expect(subjects(edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', lt: '250' } })))).toEqual([
      'rules/refund-auto amount lte 100 -> lt 250',
    ]);
    expect(subjects(edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', gte: '0' } })))).toEqual([
      'rules/refund-auto amount lte 100 removed',
    ]);
    expect(subjects(edit('refund-auto', ({ amount: _, ...r }) => r))).toEqual(['rules/refund-auto amount removed']);
    const floor = edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', gte: '10', lte: '100' } }));
    expect(
      subjects(
        edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', gte: '5', lte: '100' } }), floor),
        floor,
      ),
    ).toEqual(['rules/refund-auto amount gte 10 -> 5']);
    expect(
      subjects(
        edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', gt: '10', lte: '100' } }), floor),
        floor,
      ),
    ).toEqual([]);
  });

  it('an allow with an equal bound made inclusive', () => {
    const lt = edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', lt: '100' } }));
    expect(subjects(RUNNING, lt)).toEqual(['rules/refund-auto amount lt 100 -> lte 100']);
    expect(subjects(lt)).toEqual([]);
  });

  it('an allow with new actions, or its tools list removed or grown', () => {
    expect(subjects(edit('read-orders', (r) => ({ ...r, actions: ['orders.read', 'orders.export'] })))).toEqual([
      'rules/read-orders actions + orders.export',
    ]);
    expect(subjects(edit('read-orders', (r) => ({ ...r, actions: ['orders.*'] })))).toEqual(['rules/read-orders actions + orders.*']);
    expect(subjects(edit('read-orders', ({ tools: _, ...r }) => r))).toEqual(['rules/read-orders tools removed']);
    expect(subjects(edit('read-orders', (r) => ({ ...r, tools: ['lookup_order', 'export_orders'] })))).toEqual([
      'rules/read-orders tools + export_orders',
    ]);
  });

  it('an allow condition dropped or loosened', () => {
    expect(subjects(edit('staging', (r) => ({ ...r, when: [{ path: '/size', lte: '10' }] })))).toEqual(['rules/staging when /env dropped']);
    expect(
      subjects(
        edit('staging', (r) => ({
          ...r,
          when: [
            { path: '/env', in: ['staging', 'qa', 'production'] },
            { path: '/size', lte: '10' },
          ],
        })),
      ),
    ).toEqual(['rules/staging when /env in + "production"']);
    expect(
      subjects(
        edit('staging', (r) => ({
          ...r,
          when: [
            { path: '/env', in: ['staging', 'qa'] },
            { path: '/size', lte: '20' },
          ],
        })),
      ),
    ).toEqual(['rules/staging when /size lte 10 -> 20']);
    expect(
      subjects(
        edit('staging', (r) => ({
          ...r,
          when: [
            { path: '/env', eq: 'staging' },
            { path: '/size', lte: '10' },
          ],
        })),
      ),
    ).toEqual(['rules/staging when /env in ["staging","qa"] -> eq "staging"']);
  });

  it('a deny or require_approval rule removed', () => {
    expect(subjects(edit('never', () => undefined))).toEqual(['rules/never removed']);
    expect(subjects(edit('refund-approval', () => undefined))).toEqual(['rules/refund-approval removed']);
  });

  it('a renamed deny rule is one removed and one added (the addition narrows)', () => {
    expect(subjects(edit('never', (r) => ({ ...r, id: 'never-delete' })))).toEqual(['rules/never removed']);
  });

  it('a deny narrowed: fewer actions, tools restricted, bounds tightened, conditions added', () => {
    expect(subjects(edit('never', (r) => ({ ...r, tools: ['delete_customer'] })))).toEqual([
      'rules/never tools restricted to delete_customer',
    ]);
    expect(subjects(edit('never', (r) => ({ ...r, when: [{ path: '/soft', eq: false }] })))).toEqual(['rules/never when /soft added']);
    expect(subjects(edit('refund-over-limit', (r) => ({ ...r, amount: { currency: 'USD', gt: '5000' } })))).toEqual([
      'rules/refund-over-limit amount gt 1000 -> 5000',
    ]);
    expect(subjects(edit('never', (r) => ({ ...r, actions: ['customers.purge'] })))).toEqual(['rules/never actions - customers.delete']);
    expect(subjects(edit('never', (r) => ({ ...r, amount: { currency: 'USD', gt: '0' } })))).toEqual(['rules/never amount added']);
  });

  it('an approval narrowed: its condition tightened, or moved to another currency', () => {
    expect(subjects(edit('refund-approval', (r) => ({ ...r, amount: { currency: 'EUR', gt: '100', lte: '1000' } })))).toEqual([
      'rules/refund-approval amount currency USD -> EUR',
    ]);
    expect(subjects(edit('prod-deploys', (r) => ({ ...r, when: [{ path: '/env', eq: 'prod' }] })))).toEqual([
      'rules/prod-deploys when /env eq "production" -> "prod"',
    ]);
  });

  it('an effect changed toward allow', () => {
    expect(subjects(edit('never', (r) => ({ ...r, effect: 'require_approval', approvers: { roles: ['owner'] } })))).toEqual([
      'rules/never effect deny -> require_approval',
    ]);
    expect(
      subjects(edit('refund-approval', ({ approvers: _, approval_ttl_seconds: __, guard: ___, ...r }) => ({ ...r, effect: 'allow' }))),
    ).toEqual(['rules/refund-approval effect require_approval -> allow']);
  });

  it('approvers widened: roles or users added', () => {
    expect(
      subjects(edit('refund-approval', (r) => ({ ...r, approvers: { roles: ['owner', 'admin', 'approver'], users: [USER_A] } }))),
    ).toEqual(['rules/refund-approval approvers roles + approver']);
    expect(subjects(edit('refund-approval', (r) => ({ ...r, approvers: { roles: ['owner', 'admin'], users: [USER_A, USER_B] } })))).toEqual(
      [`rules/refund-approval approvers users + ${USER_B}`],
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
        1800,
      ),
    ).toEqual([]);
    expect(subjects(edit('prod-deploys', (r) => ({ ...r, approval_ttl_seconds: 172800 })))).toEqual([
      'rules/prod-deploys approval_ttl_seconds default 86400 -> 172800',
    ]);
  });

  it('a guard removed', () => {
    expect(subjects(edit('refund-approval', ({ guard: _, ...r }) => r))).toEqual(['rules/refund-approval guard removed']);
    expect(subjects(edit('refund-approval', (r) => ({ ...r, guard: false })))).toEqual(['rules/refund-approval guard removed']);
  });

  it('an approval that holds calls the running default denied', () => {
    const wider = edit('prod-deploys', (r) => ({ ...r, actions: ['deploy.*', 'infra.*'] }));
    expect(subjects(wider)).toEqual(['rules/prod-deploys actions + infra.*']);
    expect(subjects(edit('prod-deploys', ({ when: _, ...r }) => r))).toEqual(['rules/prod-deploys when /env dropped']);
    const added: PolicyRule = { id: 'payouts', actions: ['payouts.send'], effect: 'require_approval', approvers: { roles: ['owner'] } };
    expect(subjects({ ...RUNNING, rules: [...RUNNING.rules, added] })).toEqual(['rules/payouts added']);
    // Under a require_approval default those calls were held already.
    const held = { ...RUNNING, default: 'require_approval' as const };
    expect(subjects({ ...held, rules: [...RUNNING.rules, added] }, held)).toEqual([]);
    // Calls an allow already allowed, now held: a narrowing.
    const tighter: PolicyRule = {
      id: 'big-reads',
      actions: ['orders.read'],
      tools: ['lookup_order'],
      effect: 'require_approval',
      approvers: { roles: ['owner'] },
    };
    expect(subjects({ ...RUNNING, rules: [...RUNNING.rules, tighter] })).toEqual([]);
  });

  it('lists every widening of one edit, in document order', () => {
    const after = edit('refund-auto', (r) => ({ ...r, amount: { currency: 'USD', lte: '250' } }), {
      ...RUNNING,
      default: 'require_approval',
    });
    expect(subjects(edit('never', () => undefined, after))).toEqual([
      'default deny -> require_approval',
      'rules/never removed',
      'rules/refund-auto amount lte 100 -> 250',
    ]);
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
    expect(analyzePolicyImpact(JSON.stringify(RUNNING), text(RUNNING))).toEqual({ widensSecurity: false, widenedSubjects: [] });
  });

  it('a text that does not load', () => {
    expect(analyzePolicyImpact(text(RUNNING), '{"schema": ')).toEqual({ widensSecurity: false, widenedSubjects: [] });
    expect(analyzePolicyImpact(text(RUNNING), text(RUNNING).replace('"default": "deny"', '"default": "allow"'))).toEqual({
      widensSecurity: false,
      widenedSubjects: [],
    });
  });
});

describe('policy impact: a new document', () => {
  it('flags only its allow rules', () => {
    expect(analyzePolicyImpact(undefined, text({ ...RUNNING, default: 'require_approval' }))).toEqual({
      widensSecurity: true,
      widenedSubjects: ['rules/refund-auto added', 'rules/read-orders added', 'rules/staging added'],
    });
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
        expect(analyzePolicyImpact(text(doc), JSON.stringify(doc))).toEqual({ widensSecurity: false, widenedSubjects: [] });
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

  it('relaxing the default always widens, and names it first', () => {
    fc.assert(
      fc.property(policyArb, (doc) => {
        const strict = { ...doc, default: 'deny' as const };
        expect(subjects({ ...doc, default: 'require_approval' }, strict)[0]).toBe('default deny -> require_approval');
      }),
      { numRuns: 100 },
    );
  });
});
