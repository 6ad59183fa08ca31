// outlineRules: ids, effects and start positions straight from the text.
import { describe, expect, it } from 'vitest';
import { outlineRules } from './rule-outline.ts';
import { SAMPLE_POLICY } from './sample-policy.ts';

describe('outlineRules', () => {
  it('lists the sample policy rules in order with their effects and lines', () => {
    const outline = outlineRules(SAMPLE_POLICY);
    expect(outline?.map((r) => [r.label, r.effect, r.at.line])).toEqual([
      ['read-orders', 'allow', 5],
      ['refund-over-limit', 'deny', 10],
      ['refund-approval', 'require_approval', 16],
      ['refund-auto', 'allow', 24],
      ['never', 'deny', 30],
    ]);
  });

  it('names a rule without an id by its place and an unknown effect as unknown', () => {
    const outline = outlineRules('{"rules": [{"actions": ["a"]}, {"id": "b", "effect": "maybe"}]}');
    expect(outline).toEqual([
      { index: 0, label: 'rule 1', effect: 'unknown', at: { line: 1, column: 12 } },
      { index: 1, label: 'b', effect: 'unknown', at: { line: 1, column: 32 } },
    ]);
  });

  it('answers null for text that is not JSON and no rules without a rules list', () => {
    expect(outlineRules('{"rules": [')).toBeNull();
    expect(outlineRules('{"schema": "tollgate/policy@1"}')).toEqual([]);
    expect(outlineRules('[1, 2]')).toEqual([]);
  });
});
