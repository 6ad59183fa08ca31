// The console's words for decision maps and impact previews, on the demo's answers.
import { describe, expect, it } from 'vitest';
import type { ReviewOutcome, ToolDecision } from './api/types.ts';
import { bandWords, decisionLabel, outcomeWords, rulesInvolved, withArrows } from './review-words.ts';

const APPROVAL: ReviewOutcome = {
  decision: 'require_approval',
  rule: 'refund-approval',
  code: null,
  approvers: { roles: ['admin', 'approver', 'owner'], users: [] },
  eligible: ['m1', 'm2', 'm3'],
  fail_closed: false,
};

/** issue_refund under the demo's refunds policy (docs/review.md, "Decision maps"). */
const ISSUE_REFUND: ToolDecision = {
  tool: 'issue_refund',
  action: 'refund.issue',
  decision: 'depends_on_amount',
  bands: [
    {
      amount: { lo: '0', lo_inclusive: true, hi: '100', hi_inclusive: true, words: '[0, 100]' },
      outcome: { decision: 'allow', rule: 'refund-auto', code: null, fail_closed: false },
    },
    { amount: { lo: '100', lo_inclusive: false, hi: '1000', hi_inclusive: true, words: '(100, 1000]' }, outcome: { ...APPROVAL } },
    {
      amount: { lo: '1000', lo_inclusive: false, hi: null, hi_inclusive: false, words: '(1000, inf)' },
      outcome: { decision: 'deny', rule: 'refund-over-limit', code: null, fail_closed: false },
    },
    { amount: null, outcome: { decision: 'deny', rule: 'refund-over-limit', code: null, fail_closed: true } },
  ],
  words: '',
};

describe('review words', () => {
  it('says a tool decided by its amount or arguments depends on arguments', () => {
    expect(decisionLabel('depends_on_amount')).toBe('depends on arguments');
    expect(decisionLabel('depends_on_arguments')).toBe('depends on arguments');
    expect(decisionLabel('require_approval')).toBe('require approval');
    expect(decisionLabel('deny')).toBe('deny');
  });

  it('names who may approve, how many members are eligible, and the deciding rule or code', () => {
    expect(outcomeWords(APPROVAL)).toBe('require approval by role admin, role approver, role owner (3 eligible members) (refund-approval)');
    expect(outcomeWords({ decision: 'deny', rule: null, code: 'DEFAULT', fail_closed: false })).toBe('deny (DEFAULT)');
  });

  it("says each band of the demo's issue_refund, and the rules involved in document order of the bands", () => {
    expect((ISSUE_REFUND.bands ?? []).map(bandWords)).toEqual([
      'amount in [0, 100]: allow (refund-auto)',
      'amount in (100, 1000]: require approval by role admin, role approver, role owner (3 eligible members) (refund-approval)',
      'amount in (1000, inf): deny (refund-over-limit)',
      'no amount: deny (refund-over-limit, fail closed)',
    ]);
    expect(rulesInvolved(ISSUE_REFUND)).toEqual(['refund-auto', 'refund-approval', 'refund-over-limit']);
    const byArguments = { ...ISSUE_REFUND, decision: 'depends_on_arguments' as const, bands: undefined, rules: ['bulk', 'bulk', 'x'] };
    expect(rulesInvolved(byArguments)).toEqual(['bulk', 'x']);
  });

  it('writes the arrows of a change as arrows', () => {
    expect(withArrows('refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)')).toBe(
      'refund.issue, amount in (100, 250] USD: allow → require approval (narrows)',
    );
  });
});
