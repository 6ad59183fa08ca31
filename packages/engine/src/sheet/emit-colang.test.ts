// emitColang: the Colang a sheet equals (docs/colang.md). Context names never collide with a context the
// sheet requires or with another rule's, and every emitted text goes back through the one front end.
import { describe, expect, it } from 'vitest';
import { parseColang } from '../colang/parse.ts';
import { emitColang } from './emit-colang.ts';
import type { Sheet, SheetRule } from './read-sheet.ts';

const HEADER = '# Compiled from a rule sheet by tollgate. Deny by default: an action with a flow runs only where its guard holds.\n';

function emit(...rules: SheetRule[]): string {
  const sheet: Sheet = { rules, line: 1 };
  const text = emitColang(sheet);
  // The front end must accept whatever the emitter makes.
  expect(parseColang(text).ok).toBe(true);
  return text;
}

const over200 = [{ arg: 'amount', op: 'gt' as const, value: { decimal: '200' } }];

describe('emitColang', () => {
  it('names the source in its header, "a rule sheet" by default, and emits only the header for no flows', () => {
    expect(emit()).toBe(HEADER);
    expect(emitColang({ rules: [], line: 1 }, 'shop.yaml')).toBe(
      '# Compiled from shop.yaml by tollgate. Deny by default: an action with a flow runs only where its guard holds.\n',
    );
    expect(emit({ action: 'a', line: 2, confirmation: 'Sure?', after: ['b'], at_most: 1 })).toBe(HEADER);
  });

  it('emits the blocks in the sheet’s order, separated by a blank line', () => {
    expect(
      emit({ action: 'zeta', line: 2, never: true }, { action: 'alpha', line: 4, requires: ['x'] }, { action: 'mid', line: 6, at_most: 2 }),
    ).toBe(`${HEADER}\ndefine flow zeta\n  refuse\n\ndefine flow alpha\n  allow when $x\n`);
  });

  it('makes a context name from any tool name: lowercase, other characters as _', () => {
    expect(emit({ action: 'Refund.Card-v2', line: 2, requires: ['ok'], when: over200 })).toBe(
      `${HEADER}\ndefine context when_refund_card_v2 on Refund.Card-v2\n  amount > 200\n\ndefine flow Refund.Card-v2\n  allow when not $when_refund_card_v2 or $ok\n`,
    );
  });

  it('never reuses a name the sheet requires as a host context', () => {
    const text = emit({ action: 'refund_card', line: 2, requires: ['when_refund_card'], when: over200 });
    expect(text).toContain('define context when_refund_card_2 on refund_card\n');
    expect(text).toContain('allow when not $when_refund_card_2 or $when_refund_card\n');
    const parsed = parseColang(text);
    expect(parsed.ok && parsed.rulebook.flows).toEqual([
      {
        action: 'refund_card',
        allow_when: { any: [{ context: 'when_refund_card' }, { not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }] },
      },
    ]);
  });

  it('never reuses a name another rule requires, nor another rule’s context', () => {
    const text = emit(
      { action: 'a.b', line: 2, requires: ['x'], when: over200 },
      { action: 'a-b', line: 5, requires: ['y'], when: over200 },
      { action: 'c', line: 8, requires: ['when_a_b_2'] },
    );
    expect(text).toContain('define context when_a_b on a.b\n');
    expect(text).toContain('define context when_a_b_3 on a-b\n');
    expect(text).toContain('define flow c\n  allow when $when_a_b_2\n');
  });

  it('parenthesises several requirements only, and writes literals as the grammar reads them', () => {
    const text = emit({
      action: 'a',
      line: 2,
      requires: ['x'],
      when: [
        { arg: 'note', op: 'eq', value: { string: 'say "hi" # there\n' } },
        { arg: 'flag', op: 'eq', value: { boolean: true } },
        { arg: 'n', op: 'lte', value: { decimal: '-1.25' } },
      ],
    });
    expect(text).toBe(
      `${HEADER}\ndefine context when_a on a\n  note == "say \\"hi\\" # there\\n"\n  flag == true\n  n <= -1.25\n\ndefine flow a\n  allow when not $when_a or $x\n`,
    );
  });
});
