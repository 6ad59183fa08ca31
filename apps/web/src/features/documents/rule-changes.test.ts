// compareRules and rulesOf: a policy change rule by rule, with the decision changes that name each rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DecisionDiffEntry, ReviewOutcome } from './api/types.ts';
import { compareRules, type PolicyRule, rulesOf, sameValue } from './rule-changes.ts';

const region = { amount: null, currency: null, arguments: [] };

function outcome(rule: string | null): ReviewOutcome {
  return { decision: rule === null ? 'deny' : 'allow', rule, code: rule === null ? 'DEFAULT' : null, fail_closed: false };
}

function change(from: string | null, to: string | null): DecisionDiffEntry {
  const words = `t: ${from} -> ${to}`;
  return {
    kind: 'change',
    subject: { label: 't' },
    region,
    from: outcome(from),
    to: outcome(to),
    direction: 'changes',
    witness: { tool: 't', binding: { name: 't', action: 't.run' }, arguments: '{}' },
    words,
  };
}

function depends(rules: string[]): DecisionDiffEntry {
  return { kind: 'depends_on_arguments', subject: { label: 't' }, region, rules, reason: 'r', words: `t: depends ${rules.join(',')}` };
}

const ids = (changes: { id: string }[]) => changes.map((c) => c.id);

describe('rulesOf', () => {
  it('reads the rules with an id, in order', () => {
    expect(rulesOf('{"rules": [{"id": "b", "gt": 1.50}, {"effect": "allow"}, {"id": "a"}]}')?.map((r) => r.id)).toEqual(['b', 'a']);
  });
  it('answers null for a text that is not a JSON object', () => {
    expect(rulesOf('{"rules": [')).toBeNull();
    expect(rulesOf('[]')).toBeNull();
  });
});

describe('compareRules', () => {
  const demoV1 =
    rulesOf(
      '{"rules": [{"id": "refund-approval", "amount": {"gt": "100"}}, {"id": "refund-auto", "amount": {"lte": "100"}}, {"id": "never"}, {"id": "old"}]}',
    ) ?? [];
  const demoV2 =
    rulesOf(
      '{"rules": [{"amount": {"gt": "250"}, "id": "refund-approval"}, {"id": "refund-auto", "amount": {"lte": "250"}}, {"id": "never"}, {"id": "new"}]}',
    ) ?? [];

  it('sorts the rules into added, removed, changed and unchanged, with the decision changes that name them', () => {
    const widened = change('refund-approval', 'refund-auto');
    const elsewhere = change(null, 'new');
    const compared = compareRules(demoV1, demoV2, [widened, elsewhere, depends(['never'])]);
    expect(ids(compared.added)).toEqual(['new']);
    expect(ids(compared.removed)).toEqual(['old']);
    expect(ids(compared.changed)).toEqual(['refund-approval', 'refund-auto']);
    expect(ids(compared.unchanged)).toEqual(['never']);
    expect(compared.changed.map((c) => c.decisions)).toEqual([[widened], [widened]]);
    expect(compared.added[0]?.decisions).toEqual([elsewhere]);
    expect(compared.unchanged[0]?.decisions.map((d) => d.kind)).toEqual(['depends_on_arguments']);
  });

  it('calls a rule whose members only moved unchanged, and one whose number is written otherwise changed', () => {
    expect(
      sameValue(rulesOf('{"rules": [{"id": "a", "x": 1, "y": [2]}]}')?.[0], rulesOf('{"rules": [{"y": [2], "x": 1, "id": "a"}]}')?.[0]),
    ).toBe(true);
    const [a] = rulesOf('{"rules": [{"id": "a", "n": 1.0}]}') ?? [];
    const [b] = rulesOf('{"rules": [{"id": "a", "n": 1.00}]}') ?? [];
    expect(a && b && compareRules([a], [b], []).changed.length).toBe(1);
  });

  it('puts every rule id of either version in exactly one list, and names each change of every rule it concerns', () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const rules = fc.array(fc.record({ id, value: fc.oneof(fc.integer({ min: 0, max: 2 }), fc.constant({ x: [1] })) }), { maxLength: 6 });
    const rule = fc.option(id);
    const entries = fc.array(
      fc.oneof(
        fc.tuple(rule, rule).map(([f, t]) => change(f, t)),
        fc.array(id, { maxLength: 2 }).map(depends),
      ),
      { maxLength: 5 },
    );
    fc.assert(
      fc.property(rules, rules, entries, (from: PolicyRule[], to: PolicyRule[], diff) => {
        const compared = compareRules(from, to, diff);
        const listed = [...compared.added, ...compared.removed, ...compared.changed, ...compared.unchanged];
        const every = new Set([...from, ...to].map((r) => r.id));
        expect(ids(listed).sort()).toEqual([...every].sort());
        for (const c of listed) {
          const inFrom = from.some((r) => r.id === c.id);
          const inTo = to.some((r) => r.id === c.id);
          expect(c.status === 'added').toBe(!inFrom && inTo);
          expect(c.status === 'removed').toBe(inFrom && !inTo);
          const named = diff.filter((e) => (e.kind === 'change' ? e.from.rule === c.id || e.to.rule === c.id : e.rules.includes(c.id)));
          expect(c.decisions).toEqual(named);
        }
      }),
      { numRuns: 300 },
    );
  });
});
