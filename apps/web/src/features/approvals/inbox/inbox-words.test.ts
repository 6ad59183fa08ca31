// Unit tests of the inbox's pure helpers: the filter read from and written to the address's query, the words
// of a threshold and of a span of time, and which command a key press is.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Approval } from '../api/types.ts';
import { approvalsStillNeeded, callWords, rangeWords, spanWords, thresholdWords } from './hold-words.ts';
import { filterFromQuery, hashWithFilter, type InboxFilter, matchesFilter, NO_FILTER, queryOfFilter } from './inbox-filter.ts';
import { commandOf, type KeyPress, moveSelection } from './inbox-keys.ts';

const HELD_AT = '2026-12-04T10:00:00.000Z';
const approval = (over: Partial<Approval> = {}): Approval =>
  ({
    id: 'a1',
    call_id: 'c1',
    agent: 'support-bot',
    tool: 'issue_refund',
    amount: '205',
    currency: 'USD',
    rule: 'refund-approval',
    status: 'pending',
    held_at: HELD_AT,
    ...over,
  }) as Approval;

describe('the filter in the query', () => {
  it('reads every member and ignores unknown ages and members', () => {
    expect(filterFromQuery('?tool=issue_refund&agent=support-bot&rule=refund-approval&age=1d&q=ref&x=1')).toEqual({
      q: 'ref',
      agent: 'support-bot',
      tool: 'issue_refund',
      rule: 'refund-approval',
      age: '1d',
    });
    expect(filterFromQuery('age=2w')).toEqual(NO_FILTER);
    expect(filterFromQuery('')).toEqual(NO_FILTER);
  });
  it('writes only what is set, and reads back what it wrote (property)', () => {
    expect(queryOfFilter(NO_FILTER)).toBe('');
    expect(queryOfFilter({ ...NO_FILTER, age: '1h', tool: 'issue_refund' })).toBe('tool=issue_refund&age=1h');
    const text = fc.string({ maxLength: 12 });
    fc.assert(
      fc.property(text, text, text, text, fc.constantFrom('', '1h', '1d'), (q, agent, tool, rule, age) => {
        const filter = { q, agent, tool, rule, age } as InboxFilter;
        expect(filterFromQuery(queryOfFilter(filter))).toEqual(filter);
      }),
    );
  });
  it('replaces the query of a hash, keeping its path', () => {
    expect(hashWithFilter('#/approvals?age=1h', NO_FILTER)).toBe('#/approvals');
    expect(hashWithFilter('#/approvals/decided', { ...NO_FILTER, agent: 'refunds-bot' })).toBe('#/approvals/decided?agent=refunds-bot');
  });
  it('keeps the calls that match every member set', () => {
    const now = Date.parse(HELD_AT) + 2 * 3600_000;
    expect(matchesFilter(approval(), NO_FILTER, now)).toBe(true);
    expect(matchesFilter(approval(), { ...NO_FILTER, tool: 'issue_refund', agent: 'support-bot' }, now)).toBe(true);
    expect(matchesFilter(approval(), { ...NO_FILTER, agent: 'refunds-bot' }, now)).toBe(false);
    expect(matchesFilter(approval(), { ...NO_FILTER, rule: 'refund-approval' }, now)).toBe(true);
    expect(matchesFilter(approval(), { ...NO_FILTER, age: '1h' }, now)).toBe(true);
    expect(matchesFilter(approval(), { ...NO_FILTER, age: '1d' }, now)).toBe(false);
    expect(matchesFilter(approval(), { ...NO_FILTER, q: 'REFUND' }, now)).toBe(true);
    expect(matchesFilter(approval(), { ...NO_FILTER, q: 'payout' }, now)).toBe(false);
  });
});

describe('the words of a hold', () => {
  const amount = { currency: 'USD', bounds: { gt: '100', lte: '1000' } };
  it('names the threshold the amount crossed, with the rule', () => {
    expect(thresholdWords(approval(), 'refund-approval', amount)).toBe('amount 205 USD > 100 USD, refund-approval');
    expect(thresholdWords(approval(), null, { currency: 'USD', bounds: { gte: '100', gt: '50' } })).toBe(
      'amount 205 USD > 50 USD and ≥ 100 USD',
    );
    // A rule with only an upper bound: the bound it is under.
    expect(thresholdWords(approval({ amount: '20' }), 'small', { currency: 'USD', bounds: { lt: '50' } })).toBe(
      'amount 20 USD < 50 USD, small',
    );
    expect(rangeWords(amount)).toBe('> 100 USD and ≤ 1000 USD');
  });
  it('says nothing without an amount or amount bounds', () => {
    expect(thresholdWords(approval({ amount: null }), 'r', amount)).toBeNull();
    expect(thresholdWords(approval(), 'r', undefined)).toBeNull();
    expect(thresholdWords(approval(), 'r', { currency: 'USD', bounds: {} })).toBeNull();
  });
  it('names the call as actions do', () => {
    expect(callWords(approval())).toBe('issue_refund 205 USD for support-bot');
    expect(callWords(approval({ amount: null }))).toBe('issue_refund for support-bot');
  });
  it('words spans of time to the minute', () => {
    expect(spanWords(45_000)).toBe('45 s');
    expect(spanWords(-5)).toBe('0 s');
    expect(spanWords(12 * 60_000)).toBe('12 min');
    expect(spanWords((3 * 60 + 59) * 60_000)).toBe('3 h 59 min');
    expect(spanWords(2 * 3600_000)).toBe('2 h');
    expect(spanWords(52 * 3600_000)).toBe('2 d 4 h');
  });
  it('counts the approvals still needed: the API count when given, else one while pending', () => {
    expect(approvalsStillNeeded(approval())).toBe(1);
    expect(approvalsStillNeeded(approval({ status: 'approved' }))).toBe(0);
    expect(approvalsStillNeeded({ ...approval(), approvals_still_needed: 2 } as Approval)).toBe(2);
  });
});

describe('the shortcuts', () => {
  const press = (key: string, over: Partial<KeyPress> = {}): KeyPress => ({
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    targetTag: 'BUTTON',
    targetEditable: false,
    inList: false,
    ...over,
  });
  it('names a command for each listed key', () => {
    expect(['j', 'k', 'a', 'd', 'r', '/', '?'].map((k) => commandOf(press(k)))).toEqual([
      'next',
      'previous',
      'approve',
      'deny',
      'reason',
      'filter',
      'help',
    ]);
    expect(commandOf(press('ArrowDown', { inList: true }))).toBe('next');
    expect(commandOf(press('ArrowUp', { inList: true }))).toBe('previous');
    expect(commandOf(press('ArrowDown'))).toBeNull();
  });
  it('never fires while typing, or with a modifier', () => {
    for (const targetTag of ['INPUT', 'TEXTAREA', 'SELECT']) expect(commandOf(press('a', { targetTag }))).toBeNull();
    expect(commandOf(press('a', { targetTag: 'DIV', targetEditable: true }))).toBeNull();
    expect(commandOf(press('a', { ctrlKey: true }))).toBeNull();
    expect(commandOf(press('d', { metaKey: true }))).toBeNull();
  });
  it('moves the selection within the list, stopping at its ends', () => {
    expect(moveSelection(['a', 'b', 'c'], 'a', 1)).toBe('b');
    expect(moveSelection(['a', 'b', 'c'], 'c', 1)).toBe('c');
    expect(moveSelection(['a', 'b', 'c'], 'a', -1)).toBe('a');
    expect(moveSelection(['a', 'b'], 'gone', 1)).toBe('a');
    expect(moveSelection([], null, 1)).toBeNull();
  });
});
