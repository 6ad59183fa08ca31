// describeOutcome: the rule when one decided, else the code, else only what the expectation says.
import { describe, expect, it } from 'vitest';
import { describeOutcome } from './describe-outcome.ts';

describe('describeOutcome', () => {
  it('names the deciding rule', () => {
    expect(describeOutcome({ decision: 'require_approval', rule: 'refund-approval', code: null })).toBe(
      'require_approval by refund-approval',
    );
  });

  it('names the code when no rule decided', () => {
    expect(describeOutcome({ decision: 'deny', rule: null, code: 'DEFAULT' })).toBe('deny (DEFAULT)');
    expect(describeOutcome({ decision: 'deny', rule: null, code: 'INVALID_AMOUNT' })).toBe('deny (INVALID_AMOUNT)');
  });

  it('says only what an expectation states', () => {
    expect(describeOutcome({ decision: 'deny', rule: null })).toBe('deny, no rule');
    expect(describeOutcome({ decision: 'allow' })).toBe('allow');
  });
});
