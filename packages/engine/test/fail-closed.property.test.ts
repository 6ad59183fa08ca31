// Fail-closed properties (docs/policy.md, "Amounts", "Argument conditions"):
// removing or corrupting part of a call's arguments never turns a deny or require_approval into an allow.
// Every generated call is evaluated, then re-evaluated under every corruption of every location in its
// arguments: a key deleted, a value replaced by one of another type, an array emptied, a decimal malformed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import seedRefunds from '../../../examples/refunds.policy.json' with { type: 'json' };
import { type CompiledPolicy, compilePolicy, compileTool, evaluatePolicy, type PolicyDocument, type ToolBinding } from '../src/index.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Step = string | number;

const NUM_RUNS = 600;

// --- Corruptions ----------------------------------------------------------------------------------

interface Corruption {
  what: string;
  apply(args: Json): Json;
}

/** Values no condition of these policies can read, whatever it expects (no null or boolean operands are used). */
const UNREADABLE: Json[] = [null, true, false, {}, [], [{}], 1.5, -0.25];

const DECIMAL_VALUE = /^-?(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/;

function kindOf(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** Ways to make a well-formed decimal (string or integer) unreadable as one. */
function malformed(v: Json): Json[] {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return [v + 0.5, `x${v}`, `${v}e0`];
  if (typeof v !== 'string' || !DECIMAL_VALUE.test(v)) return [];
  const tooPrecise = v.includes('.') ? `${v}0000000000000000000` : `${v}.0000000000000000000`;
  return [`0${v}`, `${v}e0`, `+${v}`, ` ${v}`, `${v}.`, tooPrecise, `${v} USD`];
}

function withAt(root: Json, path: readonly Step[], change: (parent: Json[] | { [k: string]: Json }, key: Step) => void): Json {
  const copy = structuredClone(root);
  let parent: Json = copy;
  for (let i = 0; i < path.length - 1; i++) parent = (parent as Record<string, Json>)[path[i] as string] as Json;
  change(parent as Json[] | { [k: string]: Json }, path[path.length - 1] as Step);
  return copy;
}

function replaceAt(root: Json, path: readonly Step[], value: Json): Json {
  return withAt(root, path, (parent, key) => {
    (parent as Record<string, Json>)[key as string] = value;
  });
}

/**
 * Every corruption of every location below the root. `stringKeys` names the members only string
 * operators read, where an integer is "another type" too (docs/policy.md, "Argument conditions").
 */
function corruptionsOf(args: Json, stringKeys: ReadonlySet<string>): Corruption[] {
  const out: Corruption[] = [];
  const visit = (value: Json, path: Step[], parentIsObject: boolean) => {
    if (path.length > 0) {
      const at = `/${path.join('/')}`;
      const key = path[path.length - 1];
      if (parentIsObject) {
        out.push({
          what: `delete ${at}`,
          apply: (a) =>
            withAt(a, path, (parent, k) => {
              delete (parent as Record<string, Json>)[k as string];
            }),
        });
      }
      for (const r of UNREADABLE) {
        if (kindOf(r) !== kindOf(value)) out.push({ what: `${at} := ${JSON.stringify(r)}`, apply: (a) => replaceAt(a, path, r) });
      }
      if (typeof value === 'string' && typeof key === 'string' && stringKeys.has(key)) {
        out.push({ what: `${at} := 7`, apply: (a) => replaceAt(a, path, 7) });
      }
      if (Array.isArray(value) && value.length > 0) out.push({ what: `empty ${at}`, apply: (a) => replaceAt(a, path, []) });
      for (const m of malformed(value)) out.push({ what: `${at} := ${JSON.stringify(m)}`, apply: (a) => replaceAt(a, path, m) });
    }
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value[i] as Json, [...path, i], false);
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k], true);
    }
  };
  visit(args, [], false);
  return out;
}

// --- The check ------------------------------------------------------------------------------------

interface Tally {
  calls: number;
  held: number;
  corrupted: number;
}

function newTally(): Tally {
  return { calls: 0, held: 0, corrupted: 0 };
}

/** Asserts no corruption of a call decided deny or require_approval yields allow; counts what was checked. */
function checkCall(policy: CompiledPolicy, binding: ToolBinding, args: Json, stringKeys: ReadonlySet<string>, tally: Tally): void {
  const tool = compileTool(binding);
  const before = evaluatePolicy(policy, tool, args);
  tally.calls++;
  if (before.decision === 'allow') return;
  tally.held++;
  for (const c of corruptionsOf(args, stringKeys)) {
    const after = evaluatePolicy(policy, tool, c.apply(args));
    tally.corrupted++;
    if (after.decision === 'allow') {
      throw new Error(
        `${c.what} turned ${before.decision} (${before.rule ?? before.code}) into allow (${after.rule}) for ${binding.name} ${JSON.stringify(args)}`,
      );
    }
  }
}

function compiled(document: unknown): CompiledPolicy {
  const r = compilePolicy(document);
  if (!r.ok) throw new Error(`generated or seed policy is invalid: ${JSON.stringify(r.errors)}`);
  return r.policy;
}

// --- Seed documents -------------------------------------------------------------------------------

const REFUNDS = compiled(seedRefunds);

const DEPLOYS = compiled({
  schema: 'kblock.cloud/policy@1',
  default: 'deny',
  rules: [
    { id: 'non-prod-deploys', actions: ['deploy.run'], when: [{ path: '/environment', in: ['dev', 'staging'] }], effect: 'allow' },
    {
      id: 'prod-deploys',
      actions: ['deploy.run'],
      when: [{ path: '/environment', eq: 'production' }],
      effect: 'require_approval',
      approvers: { roles: ['owner', 'admin'] },
    },
    {
      id: 'stock-adjustments',
      actions: ['inventory.adjust'],
      when: [
        { path: '/lines/*/sku', for: 'all', starts_with: ['SKU-'] },
        { path: '/lines/*/qty', for: 'all', gt: '0', lte: '500' },
      ],
      effect: 'allow',
    },
  ],
} satisfies PolicyDocument);

const REFUND_TOOLS: ToolBinding[] = [
  { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'issue_refund_cp', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD', currency_pointer: '/currency' } },
  { name: 'issue_refund_eur', action: 'refund.issue', amount: { pointer: '/amount', currency: 'EUR' } },
  { name: 'issue_refund_unmapped', action: 'refund.issue' },
  { name: 'send_payout', action: 'payouts.send', amount: { pointer: '/amount', currency: 'USD' } },
  { name: 'read_order', action: 'orders.read' },
];

/** Decimal strings on every side of the reference policy's thresholds, and arbitrary ones. */
const decimalString = fc.oneof(
  fc.constantFrom(
    '0',
    '0.5',
    '50',
    '99.99',
    '100',
    '100.00',
    '100.000000000000000001',
    '100.01',
    '500',
    '1000',
    '1000.000000000000000001',
    '5000',
  ),
  fc.nat(6000).map(String),
  fc.tuple(fc.nat(3000), fc.stringMatching(/^[0-9]{1,18}$/)).map(([i, f]) => `${i}.${f}`),
);
const amountValue = fc.oneof(decimalString, fc.nat(6000));
const note = fc.constantFrom('customer changed their mind', 'late delivery', 'duplicate charge');

const refundCall = fc.record(
  {
    tool: fc.constantFrom(...REFUND_TOOLS),
    amount: amountValue,
    currency: fc.constantFrom('USD', 'USD', 'USD', 'EUR'),
    reason: note,
    order: fc.record({ id: fc.constantFrom('ord-1', 'ord-2'), lines: fc.array(fc.nat(9), { maxLength: 3 }) }),
  },
  { requiredKeys: ['tool'] },
);

const ENV = fc.constantFrom('dev', 'staging', 'production', 'qa', 'Production', '');
const line = fc.record(
  {
    sku: fc.constantFrom('SKU-1', 'SKU-22', 'SKU-', 'sku-3', 'X-1'),
    qty: fc.oneof(fc.constantFrom('0', '0.5', '1', '500', '500.000000000000000001', '501', '-1'), fc.integer({ min: -5, max: 600 })),
  },
  { requiredKeys: [] },
);
const deployCall = fc.oneof(
  fc
    .record({ environment: ENV, service: fc.constantFrom('billing-api', 'web') }, { requiredKeys: [] })
    .map((args) => ({ tool: { name: 'run_deploy', action: 'deploy.run' } as ToolBinding, args })),
  fc.record({ lines: fc.array(line, { maxLength: 4 }), reason: note }, { requiredKeys: [] }).map((args) => ({
    tool: { name: 'adjust_stock', action: 'inventory.adjust' } as ToolBinding,
    args,
  })),
);

// --- Randomly generated policies with conditions --------------------------------------------------

const STRINGS = ['dev', 'prod', 'staging', 'xeno', 'de', 'st'];
const PREFIXES = ['de', 'pr', 'st', 'x'];
const NUMBERS = ['-20', '-3.5', '0', '0.25', '5', '10', '10.5', '99'];

const stringPath = fc.constantFrom(
  { path: '/env' },
  { path: '/meta/a~1b' },
  { path: '/items/*/tag', for: 'all' },
  { path: '/items/*/tag', for: 'any' },
);
const numericPath = fc.constantFrom({ path: '/n' }, { path: '/items/*/qty', for: 'all' }, { path: '/items/*/qty', for: 'any' });
const stringCondition = fc
  .tuple(
    stringPath,
    fc.oneof(
      fc.constantFrom(...STRINGS).map((eq) => ({ eq })),
      fc.uniqueArray(fc.constantFrom(...STRINGS), { minLength: 1, maxLength: 3 }).map((list) => ({ in: list })),
      fc.uniqueArray(fc.constantFrom(...PREFIXES), { minLength: 1, maxLength: 2 }).map((list) => ({ starts_with: list })),
    ),
  )
  .map(([p, op]) => ({ ...p, ...op }));
const bounds = fc.tuple(fc.uniqueArray(fc.constantFrom(...NUMBERS), { minLength: 2, maxLength: 2 }), fc.nat(8)).map(([pair, shape]) => {
  const [lo, hi] = [...pair].sort((a, b) => Number(a) - Number(b)) as [string, string];
  const lower = shape % 2 === 0 ? { gt: lo } : { gte: lo };
  const upper = shape % 3 === 0 ? { lt: hi } : { lte: hi };
  return shape < 3 ? lower : shape < 6 ? upper : { ...lower, ...upper };
});
const numericCondition = fc
  .tuple(
    numericPath,
    fc.oneof(
      fc.integer({ min: -20, max: 20 }).map((eq) => ({ eq })),
      fc.uniqueArray(fc.integer({ min: -20, max: 20 }), { minLength: 1, maxLength: 3 }).map((list) => ({ in: list })),
      bounds,
    ),
  )
  .map(([p, op]) => ({ ...p, ...op }));
const amountCondition = fc.option(fc.record({ currency: fc.constantFrom('USD', 'USD', 'EUR'), lte: fc.constantFrom('10', '100') }), {
  nil: undefined,
});
const generatedRule = fc
  .record({
    effect: fc.constantFrom('allow', 'allow', 'deny', 'require_approval'),
    actions: fc.constantFrom(['t.run'], ['t.*'], ['*']),
    when: fc.array(fc.oneof(stringCondition, numericCondition), { minLength: 1, maxLength: 3 }),
    amount: amountCondition,
  })
  .map(({ effect, actions, when, amount }) => ({
    actions,
    when,
    effect,
    ...(amount ? { amount } : {}),
    ...(effect === 'require_approval' ? { approvers: { roles: ['owner'] } } : {}),
  }));
const generatedPolicy = fc
  .record({ default: fc.constantFrom('deny', 'require_approval'), rules: fc.array(generatedRule, { minLength: 1, maxLength: 5 }) })
  .map((p) => ({ schema: 'tollgate/policy@1', default: p.default, rules: p.rules.map((r, i) => ({ id: `r${i}`, ...r })) }));

const numericValue = fc.oneof(fc.constantFrom(...NUMBERS), fc.integer({ min: -25, max: 120 }));
const generatedArgs = fc.record(
  {
    env: fc.constantFrom(...STRINGS),
    meta: fc.record({ 'a/b': fc.constantFrom(...STRINGS) }, { requiredKeys: [] }),
    n: numericValue,
    items: fc.array(fc.record({ tag: fc.constantFrom(...STRINGS), qty: numericValue }, { requiredKeys: [] }), { maxLength: 3 }),
    amount: fc.oneof(fc.constantFrom('0', '10', '10.01', '99', '100', '150'), fc.nat(200)),
  },
  { requiredKeys: [] },
);
const GENERATED_TOOL: ToolBinding = { name: 'run', action: 't.run', amount: { pointer: '/amount', currency: 'USD' } };

// --- Properties -----------------------------------------------------------------------------------

describe('corrupting arguments never turns a deny or require_approval into an allow', () => {
  it('on the reference refunds policy', () => {
    const tally = newTally();
    fc.assert(
      fc.property(refundCall, ({ tool, ...args }) => {
        checkCall(REFUNDS, tool, args as Json, new Set(['currency', 'reason']), tally);
      }),
      { numRuns: NUM_RUNS },
    );
    expect(tally.calls).toBe(NUM_RUNS);
    expect(tally.held).toBeGreaterThan(NUM_RUNS / 4);
    expect(tally.corrupted).toBeGreaterThan(NUM_RUNS);
  });

  it('on the reference refunds policy, a corrupted or missing amount is never allowed at all', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...REFUND_TOOLS.filter((t) => t.action === 'refund.issue' && t.amount)),
        amountValue,
        fc.nat(),
        (tool, amount, pick) => {
          const args: Json = { amount, currency: 'USD' };
          const amountCorruptions = corruptionsOf(args, new Set()).filter((c) => c.what.includes('/amount'));
          const c = amountCorruptions[pick % amountCorruptions.length] as Corruption;
          const d = evaluatePolicy(REFUNDS, compileTool(tool), c.apply(args));
          checked++;
          if (d.decision === 'allow') throw new Error(`${c.what} on ${JSON.stringify(args)} was allowed by ${d.rule}`);
          expect(['INVALID_AMOUNT', null]).toContain(d.code);
        },
      ),
      { numRuns: NUM_RUNS },
    );
    expect(checked).toBe(NUM_RUNS);
  });

  it('on the reference deploy and inventory policy', () => {
    const tally = newTally();
    fc.assert(
      fc.property(deployCall, ({ tool, args }) => {
        checkCall(DEPLOYS, tool, args as Json, new Set(['environment', 'sku', 'service', 'reason']), tally);
      }),
      { numRuns: NUM_RUNS },
    );
    expect(tally.calls).toBe(NUM_RUNS);
    expect(tally.held).toBeGreaterThan(NUM_RUNS / 4);
    expect(tally.corrupted).toBeGreaterThan(NUM_RUNS);
  });

  it('on randomly generated policies with argument and amount conditions', () => {
    const tally = newTally();
    fc.assert(
      fc.property(generatedPolicy, generatedArgs, (document, args) => {
        checkCall(compiled(document), GENERATED_TOOL, args as Json, new Set(['env', 'a/b', 'tag']), tally);
      }),
      { numRuns: NUM_RUNS },
    );
    expect(tally.calls).toBe(NUM_RUNS);
    expect(tally.held).toBeGreaterThan(NUM_RUNS / 4);
    expect(tally.corrupted).toBeGreaterThan(NUM_RUNS);
  });
});

describe('the corruption check itself', () => {
  it('catches a policy that is not fail-closed (an allow reached by an unreadable value)', () => {
    // A hand-made non-monotone setup: the allow tests for null itself, so making the value unreadable to
    // other conditions (null) gains the allow. The check must report it.
    const permissive = compiled({
      schema: 'tollgate/policy@1',
      default: 'deny',
      rules: [{ id: 'null-allowed', actions: ['t.run'], when: [{ path: '/env', eq: null }], effect: 'allow' }],
    });
    expect(() => checkCall(permissive, { name: 'run', action: 't.run' }, { env: 'prod' }, new Set(), newTally())).toThrow(
      /turned deny \(DEFAULT\) into allow/,
    );
  });

  it('lists deletions, other types, emptied arrays and malformed decimals', () => {
    const whats = corruptionsOf({ lines: [{ qty: '5', sku: 'SKU-1' }] }, new Set(['sku'])).map((c) => c.what);
    expect(whats).toEqual(
      expect.arrayContaining([
        'delete /lines',
        'empty /lines',
        'delete /lines/0/qty',
        '/lines/0/qty := "05"',
        '/lines/0/qty := "5e0"',
        '/lines/0/qty := null',
        '/lines/0/sku := 7',
      ]),
    );
    expect(whats).not.toContain('/lines/0/qty := 7');
  });
});
