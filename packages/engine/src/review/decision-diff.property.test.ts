// The decision diff against brute force: random pairs of small policies and many random calls, each
// decided by the evaluator under both versions. Every call that changes lies in a reported region with
// the reported outcomes and direction (or in one that depends on arguments); no call outside the reported
// regions changes; every reported region's witness is a valid call in it that changes as said.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompiledCondition, type Condition } from '../conditions/condition.ts';
import { compilePolicy } from '../policy/compile.ts';
import { CompiledTool } from '../policy/tool.ts';
import type { Member, PolicyDocument, PolicyRule, ToolBinding } from '../policy/types.ts';
import { JsonNumber } from '../source/json-number.ts';
import { type ArgumentConstraint, constraintHolds } from './argument-region.ts';
import { type DecisionDiff, decisionDiff, regionContains } from './decision-diff.ts';
import { decideCall, directionOf, effectKey } from './outcome.ts';
import { subjectKey } from './subjects.ts';

const USER_A = '00000000-0000-4000-8000-00000000000a';
const USER_B = '00000000-0000-4000-8000-00000000000b';
const MEMBERS: Member[] = [
  { id: USER_A, role: 'admin', signing: true },
  { id: USER_B, role: 'approver', signing: true },
  { id: '00000000-0000-4000-8000-00000000000c', role: 'owner', signing: false },
];

const THRESHOLDS = ['0', '10', '10.5', '100', '100.25'];
const bound = fc.option(fc.constantFrom(...THRESHOLDS), { nil: undefined });

const amountCondition = fc
  .record({
    currency: fc.constantFrom('USD', 'USD', 'EUR'),
    lower: fc.constantFrom('gt', 'gte'),
    lo: bound,
    upper: fc.constantFrom('lt', 'lte'),
    hi: bound,
  })
  .map(({ currency, lower, lo, upper, hi }) => ({ currency, ...(lo ? { [lower]: lo } : {}), ...(hi ? { [upper]: hi } : {}) }));

const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({ path: fc.constantFrom('/env', '/qty'), eq: fc.constantFrom<Condition['eq']>('prod', 5, true, null) }),
  fc.record({
    path: fc.constantFrom('/env', '/qty'),
    in: fc.uniqueArray(fc.constantFrom<string | number>('prod', 'dev', 5, 7), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ path: fc.constantFrom('/env', '/qty'), starts_with: fc.constantFrom('pro', 'd pr').map((s) => s.split(' ')) }),
  fc
    .record({
      path: fc.constantFrom('/env', '/qty'),
      gt: fc.option(fc.constantFrom('-1', '5', '7.5'), { nil: undefined }),
      lte: fc.option(fc.constantFrom('5', '7.5', '100'), { nil: undefined }),
    })
    .filter((c) => c.gt !== undefined || c.lte !== undefined)
    .map((c) => Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as unknown as Condition),
);

const rule = fc
  .record({
    actions: fc.uniqueArray(fc.constantFrom('refund.issue', 'refund.void', 'refund.*', 'orders.read', '*'), { minLength: 1, maxLength: 2 }),
    tools: fc.option(fc.uniqueArray(fc.constantFrom('t1', 't2'), { minLength: 1, maxLength: 2 }), { nil: undefined }),
    amount: fc.option(amountCondition, { nil: undefined, freq: 2 }),
    when: fc.option(fc.array(condition, { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 2 }),
    effect: fc.constantFrom('allow', 'require_approval', 'deny'),
    approvers: fc.constantFrom(
      { roles: ['admin'] },
      { roles: ['admin', 'approver'] },
      { roles: ['owner'] },
      { users: [USER_A] },
      { roles: ['approver'], users: [USER_A] },
    ),
  })
  .map(({ approvers, ...r }) => {
    const out: Record<string, unknown> = { actions: r.actions, effect: r.effect };
    if (r.tools) out.tools = r.tools;
    if (r.amount) out.amount = r.amount;
    if (r.when) out.when = r.when;
    if (r.effect === 'require_approval') out.approvers = approvers;
    return out;
  });

const policy = fc
  .record({ default: fc.constantFrom('deny', 'require_approval'), rules: fc.array(rule, { minLength: 1, maxLength: 4 }) })
  .map(
    (p) => ({ schema: 'tollgate/policy@1', default: p.default, rules: p.rules.map((r, i) => ({ id: `r${i}`, ...r })) }) as PolicyDocument,
  )
  .filter((doc) => compilePolicy(doc).ok);

const tool: fc.Arbitrary<ToolBinding> = fc
  .record({
    name: fc.constantFrom('t1', 't2', 't3'),
    action: fc.constantFrom('refund.issue', 'refund.void', 'refund.void.batch', 'orders.read', 'orders', 'payouts.send'),
    currency: fc.constantFrom(undefined, 'USD', 'EUR', 'GBP'),
  })
  .map(({ name, action, currency }) => (currency ? { name, action, amount: { pointer: '/amount', currency } } : { name, action }));

const MISSING = Symbol('missing');
const value = (pool: unknown[]) => fc.constantFrom(MISSING, ...pool);
const call = fc.record({
  tool,
  amount: value([
    '0',
    '5',
    '10',
    '10.5',
    '10.50',
    '10.500000000000000001',
    '50',
    '100',
    '100.25',
    '100.250001',
    '1000',
    10,
    100,
    '-5',
    'x',
  ]),
  env: value(['prod', 'dev', 'production', 'pr', 'd', '', 5, 7, new JsonNumber('5.0'), true, false, null, {}, ['prod']]),
  qty: value([
    '5',
    '5.0',
    5,
    7,
    '7.5',
    new JsonNumber('7.5'),
    new JsonNumber('5.000000000000000001'),
    '-1',
    -1,
    'abc',
    8,
    '100',
    'prod',
    null,
  ]),
});

function args(c: { amount: unknown; env: unknown; qty: unknown }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c)) if (v !== MISSING) out[k] = v;
  return out;
}

function compiled(doc: PolicyDocument) {
  const r = compilePolicy(doc);
  if (!r.ok) throw new Error('the generator makes valid policies');
  return r.policy;
}

function check(
  running: PolicyDocument,
  candidate: PolicyDocument,
  calls: (typeof call extends fc.Arbitrary<infer T> ? T : never)[],
  members?: Member[],
  withCatalogue = false,
) {
  const a = compiled(running);
  const b = compiled(candidate);
  // With a catalogue: the calls' distinct tools, each call's region looked up under its own tool.
  const catalogue = withCatalogue ? [...new Map(calls.map((c) => [JSON.stringify(c.tool), c.tool])).values()] : undefined;
  const diff: DecisionDiff = decisionDiff(a, b, catalogue, members ? { members } : {});
  // Built only when a check fails: the call, both decisions and every reported entry.
  const explain = (what: string) => `${what}\n${diff.entries.map((e) => e.words).join('\n')}`;
  // (b) every reported change has a valid witness call in its region that changes as said.
  for (const e of diff.entries) {
    if (e.kind !== 'change') continue;
    const t = new CompiledTool(e.witness.tool);
    const from = decideCall(a, t, e.witness.arguments, members, false);
    const to = decideCall(b, t, e.witness.arguments, members, false);
    const seen = [regionContains(e.region, e.witness.tool, e.witness.arguments), effectKey(from), effectKey(to), directionOf(from, to)];
    const said = [true, effectKey(e.from), effectKey(e.to), e.direction];
    if (seen.some((v, i) => v !== said[i])) expect(seen, explain(e.words)).toEqual(said);
  }
  const keys = new Map<string, string>();
  for (const c of calls) {
    const t = new CompiledTool(c.tool);
    const x = args(c);
    const before = decideCall(a, t, x, members, false);
    const after = decideCall(b, t, x, members, false);
    const from = effectKey(before);
    const to = effectKey(after);
    const toolKey = JSON.stringify(c.tool);
    const key = keys.get(toolKey) ?? subjectKey(a, b, c.tool);
    keys.set(toolKey, key);
    const mine = (subject: (typeof diff.subjects)[number]) => (catalogue ? JSON.stringify(subject.tool) === toolKey : subject.key === key);
    const containing = diff.entries.filter((e) => mine(e.subject) && regionContains(e.region, c.tool, x));
    // (d) the structured constraints say what the worded ones say, read by a script's own means.
    for (const e of diff.entries) {
      for (const k of e.region.arguments) {
        if (structuredHolds(k, x) !== constraintHolds(k, x))
          expect(structuredHolds(k, x), explain(`${k.words} on ${JSON.stringify(x)}`)).toBe(constraintHolds(k, x));
      }
    }
    const changes = containing.filter((e) => e.kind === 'change');
    const what = () => explain(`${toolKey} ${JSON.stringify(Object.keys(x))} ${from} -> ${to}`);
    if (from === to) {
      // (c) no call outside the reported regions changes: a call that does not change lies in no change.
      if (changes.length > 0)
        expect(
          changes.map((e) => e.words),
          what(),
        ).toEqual([]);
      continue;
    }
    // (a) a call that changes lies in a region with its outcomes and direction, or in one that depends.
    if (containing.some((e) => e.kind === 'depends_on_arguments')) continue;
    const [change] = changes;
    if (changes.length !== 1 || change?.kind !== 'change') {
      expect(changes.length, what()).toBe(1);
      continue;
    }
    const direction = directionOf(before, after);
    const seen = [effectKey(change.from), effectKey(change.to), change.direction];
    if (seen[0] !== from || seen[1] !== to || seen[2] !== direction) expect(seen, what()).toEqual([from, to, direction]);
  }
}

/** A constraint read as a script would: each test rebuilt into a condition from {path, op, operand} and evaluated. */
function structuredHolds(k: ArgumentConstraint, args: unknown): boolean {
  const RESULT = ['false', 'true', 'unknown'];
  return k.anyOf.some((alternative) =>
    alternative.every((t) => {
      const condition = (t.op === 'range' ? { path: k.path, ...(t.operand as object) } : { path: k.path, [t.op]: t.operand }) as Condition;
      return RESULT[new CompiledCondition(condition).evaluate(args)] === t.result;
    }),
  );
}

describe('the decision diff against brute force', () => {
  it('reports exactly the calls that change, with their outcomes and direction, with or without a catalogue', () => {
    fc.assert(
      fc.property(
        policy,
        policy,
        fc.array(call, { minLength: 100, maxLength: 100 }),
        fc.boolean(),
        (running, candidate, calls, withMembers) => {
          check(running, candidate, calls, withMembers ? MEMBERS : undefined);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('reports the calls that change between a policy and a small edit of it', () => {
    // Random pairs rarely share rules; an edit of one rule finds the regions at thresholds both name.
    const edited = policy.chain((doc) =>
      fc.tuple(fc.constant(doc), fc.nat(doc.rules.length - 1), rule).map(([d, i, r]) => {
        const rules = d.rules.map((x, k) => (k === i ? ({ id: x.id, ...r } as PolicyRule) : x));
        return [d, { ...d, rules }] as const;
      }),
    );
    fc.assert(
      fc.property(
        edited.filter(([, b]) => compilePolicy(b).ok),
        fc.array(call, { minLength: 100, maxLength: 100 }),
        ([running, candidate], calls) => check(running, candidate, calls),
      ),
      { numRuns: 100 },
    );
  });
});
