// Where a sheet's refusal points (docs/rule-sheets.md, "Refused, never approximated"): for generated valid
// sheets with one fault injected (an unknown key, a bad value, a bad list item, a condition with no
// comparison), the one diagnostic's line, column and end name exactly the faulty key or value in the text,
// so the console's marker underlines it and the CLI's FILE:LINE:COLUMN leads an editor to it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSheet } from '../src/sheet/read-sheet.ts';

const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/);
const indent = fc.constantFrom(2, 4);
const spaces = fc.constantFrom(' ', '  ', '   ');

interface Rule {
  action: string;
  keys: string[];
}

/** A valid rule's keys, each on its own line: requires, at_most, confirmation. */
const validRule = fc.record({
  requires: fc.uniqueArray(name, { minLength: 1, maxLength: 3 }),
  atMost: fc.integer({ min: 1, max: 9999 }),
  confirm: fc.boolean(),
});

/** A fault: the key line it adds and the exact text the diagnostic must span. */
const fault = fc.oneof(
  name.map((n) => ({ line: (s: string) => `bogus_${n}:${s}1`, token: (n2: string) => `bogus_${n2}`, n })),
  fc.constantFrom('0', '-3', '1.5', 'many').map((v) => ({ line: (s: string) => `at_most:${s}${v}`, token: () => v, n: '' })),
  fc.constantFrom('Bad-Name', '9lives', 'UPPER').map((v) => ({ line: (s: string) => `requires:${s}[ok, ${v}]`, token: () => v, n: '' })),
);

function sheetText(rules: Rule[], pad: number): string {
  const at = ' '.repeat(pad);
  const lines = ['# generated', 'rules:'];
  for (const rule of rules) {
    lines.push(`${at}- action: ${rule.action}`);
    for (const key of rule.keys) lines.push(`${at}  ${key}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The text a diagnostic spans, read back from its line and columns. */
function spanned(text: string, p: { line?: number; column?: number; endLine?: number; endColumn?: number }): string {
  expect(p.endLine).toBe(p.line);
  const line = text.split('\n')[(p.line ?? 0) - 1] ?? '';
  return line.slice((p.column ?? 0) - 1, (p.endColumn ?? 0) - 1);
}

describe('a refused sheet names the faulty key or value by line and column', () => {
  it('for one injected fault in any rule of a generated sheet (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(name, { minLength: 1, maxLength: 5 }),
        fc.array(validRule, { minLength: 5, maxLength: 5 }),
        fc.nat(),
        fault,
        indent,
        spaces,
        (actions, shapes, pick, bad, pad, gap) => {
          const rules: Rule[] = actions.map((action, i) => {
            const s = shapes[i] as { requires: string[]; atMost: number; confirm: boolean };
            const keys = [`requires:${gap}[${s.requires.join(', ')}]`];
            if (s.confirm) keys.push(`confirmation:${gap}"Really?"`);
            return { action, keys };
          });
          const target = rules[pick % rules.length] as Rule;
          // The faulty rule keeps only what no fault repeats (a key given twice is a fault of its own).
          const faulty = bad.line(gap);
          target.keys = faulty.startsWith('requires') ? [faulty] : [`requires:${gap}[ok]`, faulty];
          const text = sheetText(rules, pad);
          const read = readSheet(text);
          expect(read.ok).toBe(false);
          if (read.ok) return;
          expect(read.problems).toHaveLength(1);
          const problem = read.problems[0] as (typeof read.problems)[number];
          expect(spanned(text, problem)).toBe(bad.token(bad.n));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('for a condition that states no comparison, at its key; for a value on the line below, at its key', () => {
    const when = 'rules:\n  - action: pay\n    requires: [ok]\n    when: { amount: 5 }\n';
    const read = readSheet(when);
    expect(read.ok ? [] : read.problems).toMatchObject([{ line: 4, column: 13, endLine: 4, endColumn: 19 }]);
    const below = 'rules:\n  - action: pay\n    at_most:\n      3\n';
    const r = readSheet(below);
    expect(r.ok ? [] : r.problems).toMatchObject([{ line: 3, column: 5, endLine: 3, endColumn: 12 }]);
  });

  it('for a tab, at the tab itself', () => {
    const r = readSheet('rules:\n  - action: pay\n    never:\ttrue\n');
    expect(r.ok ? [] : r.problems.map((p) => [p.line, p.column, p.endColumn])).toContainEqual([3, 11, 12]);
  });
});
