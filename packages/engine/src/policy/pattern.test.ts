// Action patterns and names: the grammar, the reserved namespace, and matching.
import { describe, expect, it } from 'vitest';
import { isActionName, isActionPattern, isReserved, MAX_PATTERN_LENGTH, matchesAction, RESERVED_NAMESPACE } from './pattern.ts';

describe('isActionPattern', () => {
  it.each([
    'refund.issue',
    'orders.read',
    'customers.export',
    'deploy',
    'a_b-c.d9.0',
    '*',
    'payouts.*',
    'a.b.c.*',
    `${'a'.repeat(MAX_PATTERN_LENGTH - 2)}.*`,
    'a'.repeat(MAX_PATTERN_LENGTH),
  ])('accepts %j', (pattern) => {
    expect(isActionPattern(pattern)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['a middle *', 'a.*.b'],
    ['a leading *', '*.read'],
    ['a * inside a segment', 'pay*'],
    ['a segment ending in *', 'payouts.send*'],
    ['two final *', 'a.*.*'],
    ['** alone', '**'],
    ['.* alone', '.*'],
    ['uppercase', 'Refund.issue'],
    ['all uppercase', 'REFUND'],
    ['an empty segment', 'a..b'],
    ['a leading dot', '.a'],
    ['a trailing dot', 'a.'],
    ['a space', 'refund issue'],
    ['a slash', 'refund/issue'],
    ['a colon', 'refund:issue'],
    ['non-ASCII', 'rèfund'],
    [`${MAX_PATTERN_LENGTH + 1} characters`, 'a'.repeat(MAX_PATTERN_LENGTH + 1)],
    [`${MAX_PATTERN_LENGTH + 1} characters ending in .*`, `${'a'.repeat(MAX_PATTERN_LENGTH - 1)}.*`],
  ])('refuses %s (%j)', (_name, pattern) => {
    expect(isActionPattern(pattern)).toBe(false);
  });

  it('allows 128 characters at most', () => {
    expect(MAX_PATTERN_LENGTH).toBe(128);
  });
});

describe('isActionName', () => {
  it('accepts names and refuses wildcards and malformed names', () => {
    expect(isActionName('refund.issue')).toBe(true);
    expect(isActionName('a'.repeat(128))).toBe(true);
    expect(isActionName('a'.repeat(129))).toBe(false);
    expect(isActionName('*')).toBe(false);
    expect(isActionName('payouts.*')).toBe(false);
    expect(isActionName('')).toBe(false);
    expect(isActionName('Refund.issue')).toBe(false);
  });
});

describe('isReserved', () => {
  it('names the tollgate. namespace', () => {
    expect(RESERVED_NAMESPACE).toBe('tollgate.');
    expect(isReserved('tollgate.audit')).toBe(true);
    expect(isReserved('tollgate.*')).toBe(true);
    expect(isReserved('tollgate')).toBe(false);
    expect(isReserved('tollgatex.audit')).toBe(false);
    expect(isReserved('refund.tollgate.x')).toBe(false);
    expect(isReserved('*')).toBe(false);
  });
});

describe('matchesAction', () => {
  it('"payouts.*" matches one or more further segments, never payouts itself', () => {
    expect(matchesAction('payouts.*', 'payouts.send')).toBe(true);
    expect(matchesAction('payouts.*', 'payouts.send.now')).toBe(true);
    expect(matchesAction('payouts.*', 'payouts')).toBe(false);
    expect(matchesAction('payouts.*', 'payoutsx.send')).toBe(false);
    expect(matchesAction('payouts.*', 'payout.send')).toBe(false);
    expect(matchesAction('payouts.*', 'refund.payouts.send')).toBe(false);
  });

  it('"*" matches every action', () => {
    for (const action of ['refund.issue', 'payouts', 'a.b.c.d', 'x']) expect(matchesAction('*', action)).toBe(true);
  });

  it('a plain pattern matches exactly its action', () => {
    expect(matchesAction('refund.issue', 'refund.issue')).toBe(true);
    expect(matchesAction('refund.issue', 'refund.issue.partial')).toBe(false);
    expect(matchesAction('refund.issue', 'refund')).toBe(false);
    expect(matchesAction('refund', 'refund.issue')).toBe(false);
  });

  it('nested prefixes match only below them', () => {
    expect(matchesAction('a.b.*', 'a.b.c')).toBe(true);
    expect(matchesAction('a.b.*', 'a.b')).toBe(false);
    expect(matchesAction('a.b.*', 'a.c.d')).toBe(false);
  });
});
