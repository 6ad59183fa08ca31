// Unit tests of reading the rules at fault from an error's details.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api/api-error.ts';
import { rulesOf } from './request-ruleset.ts';

describe('rulesOf', () => {
  it('reads details.rules, keeping only strings', () => {
    expect(rulesOf({ rules: ['colang/trial.co', 3] })).toEqual(['colang/trial.co']);
  });
  it('is empty for details without rules', () => {
    expect(rulesOf(undefined)).toEqual([]);
    expect(rulesOf({ replaced_by: 'rulesets/b.ruleset.json' })).toEqual([]);
    expect(rulesOf({ rules: 'x' })).toEqual([]);
  });
  it('reads the rules from an API error with its code', () => {
    const error = new ApiError(409, 'RULESET_PINS_DRAFT', 'pins a draft rule', { rules: ['colang/trial.co'] });
    expect([error.code, error.status, rulesOf(error.details)]).toEqual(['RULESET_PINS_DRAFT', 409, ['colang/trial.co']]);
  });
});
