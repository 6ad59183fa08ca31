// Unit tests of the inbox's keyboard moves: which tab a key selects, and which card takes focus after a decision.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tabAfterKey } from '../../../components/tab-list.tsx';
import { nextFocus } from './card-focus.ts';

describe('tabAfterKey', () => {
  it('moves right and left with wrapping, Home to the first and End to the last', () => {
    expect(tabAfterKey('ArrowRight', 0, 2)).toBe(1);
    expect(tabAfterKey('ArrowRight', 1, 2)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 0, 2)).toBe(1);
    expect(tabAfterKey('ArrowLeft', 1, 2)).toBe(0);
    expect(tabAfterKey('Home', 1, 2)).toBe(0);
    expect(tabAfterKey('End', 0, 2)).toBe(1);
  });
  it('stays among the tabs, however many (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        fc.constantFrom('ArrowRight', 'ArrowLeft', 'Home', 'End'),
        (count, at, key) => {
          const next = tabAfterKey(key, at % count, count);
          expect(next).not.toBeNull();
          expect(next).toBeGreaterThanOrEqual(0);
          expect(next).toBeLessThan(count);
        },
      ),
    );
  });
  it('ignores every other key', () => {
    for (const key of ['ArrowUp', 'ArrowDown', 'Enter', ' ', 'Tab', 'a']) expect(tabAfterKey(key, 0, 2)).toBeNull();
  });
});

describe('nextFocus', () => {
  it('picks the card after the decided one, else the one before, else none', () => {
    expect(nextFocus(['a', 'b', 'c'], 'a')).toBe('b');
    expect(nextFocus(['a', 'b', 'c'], 'c')).toBe('b');
    expect(nextFocus(['a'], 'a')).toBeNull();
    expect(nextFocus(['a', 'b'], 'gone')).toBe('a');
  });
  it('skips the cards that left with it, when the live list drops several at once', () => {
    expect(nextFocus(['a', 'b', 'c', 'd'], 'b', new Set(['a', 'd']))).toBe('d');
    expect(nextFocus(['a', 'b', 'c', 'd'], 'd', new Set(['a']))).toBe('a');
    expect(nextFocus(['a', 'b', 'c'], 'b', new Set())).toBeNull();
    expect(nextFocus(['a', 'b', 'c'], 'b', new Set(['b']))).toBeNull();
  });
  it('never picks the decided card, and finds one whenever another is left (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 20 }), fc.nat(), (ids, pick) => {
        const decided = ids[pick % ids.length] as string;
        const next = nextFocus(ids, decided);
        expect(next).not.toBe(decided);
        expect(next === null).toBe(ids.length === 1);
        if (next !== null) expect(Math.abs(ids.indexOf(next) - ids.indexOf(decided))).toBe(1);
      }),
    );
  });
});
