// Property: rules built through the form's edits, in any order, are read back by the form and by the
// engine as exactly what was set: the form writes YAML the reader reads back to the same rules.
import { compileSheet, type SheetRule } from '@tollgate/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addRule, type FieldEdit, setRuleField } from './edit-sheet-yaml.ts';
import { type Comparison, readRuleRows } from './read-rule-rows.ts';
import { scalarOf, WrittenNumber } from './yaml-flow-text.ts';

const OPS: Record<Comparison, NonNullable<SheetRule['when']>[number]['op']> = {
  over: 'gt',
  under: 'lt',
  at_least: 'gte',
  at_most: 'lte',
  is: 'eq',
};

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const contextName = word.map((w) => `c_${w}`);
const toolName = word.map((w) => `t_${w}`);
/** Decimals in their canonical spelling, so the engine's exact value reads back as the same digits. */
const decimal = fc
  .tuple(fc.nat({ max: 1_000_000 }), fc.option(fc.stringMatching(/^[0-9]{0,5}[1-9]$/), { nil: undefined }), fc.boolean())
  .map(([whole, fraction, negative]) => `${negative && whole > 0 ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}`);
// Words a person might type into the confirmation: YAML's indicators, quotes, tabs, newlines and non-ASCII.
const tricky = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    ' ',
    ':',
    '#',
    '"',
    "'",
    '\\',
    '-',
    '[',
    '{',
    ',',
    '?',
    '!',
    '\t',
    '\n',
    '\u2028',
    'é',
    '€',
    '&',
    '*',
    '%',
    '@',
  ),
  minLength: 1,
  maxLength: 24,
});

const condition = fc.oneof(
  fc.record({ argument: word, comparison: fc.constantFrom<Comparison>('over', 'under', 'at_least', 'at_most'), value: decimal }),
  fc.record({
    argument: word,
    comparison: fc.constant<Comparison>('is'),
    value: fc.oneof(
      decimal,
      word.map((w) => `w${w}`),
      fc.constantFrom('true', 'false', '"200"', '"true"'),
    ),
  }),
);

const governed = fc.record(
  {
    requires: fc.uniqueArray(contextName, { minLength: 1, maxLength: 3 }),
    when: fc.uniqueArray(condition, { maxLength: 3, selector: (c) => `${c.argument}_${c.comparison}` }),
    confirmation: tricky.filter((s) => s.trim() !== ''),
    after: fc.uniqueArray(
      toolName.map((t) => `${t}_a`),
      { minLength: 1, maxLength: 2 },
    ),
    not_after: fc.uniqueArray(
      toolName.map((t) => `${t}_n`),
      { minLength: 1, maxLength: 2 },
    ),
    at_most: fc.integer({ min: 1, max: 1_000_000 }),
  },
  { requiredKeys: [] },
);
const rule = fc.oneof(
  governed.filter((g) => Object.keys(g).length > 0 && (g.when === undefined || g.when.length === 0 || g.requires !== undefined)),
  fc.constant({ never: true as const }),
);
const sheet = fc.uniqueArray(fc.tuple(toolName, rule, fc.nat()), { minLength: 1, maxLength: 5, selector: ([action]) => action });

function editsOf(fields: Record<string, unknown>): FieldEdit[] {
  const edits: FieldEdit[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'at_most') edits.push({ key, value: String(value) });
    else if (key === 'never') edits.push({ key, value: true });
    else edits.push({ key, value } as FieldEdit);
  }
  return edits;
}

function applied(result: ReturnType<typeof setRuleField>): string {
  if (!result.ok) throw new Error(result.reason);
  return result.text;
}

describe('rules built through the form', () => {
  it('read back the same through the form and through the engine', () => {
    fc.assert(
      fc.property(sheet, (rules) => {
        let text = '# built by the form\nrules: []\n';
        rules.forEach(([action, fields, seed], index) => {
          text = applied(addRule(text, action));
          const edits = editsOf(fields);
          // Keys are set in an order fast-check chooses: the result must not depend on it.
          const order = edits.map((_, i) => (i + seed) % edits.length);
          for (const i of order) text = applied(setRuleField(text, index, edits[i] as FieldEdit));
        });

        const read = readRuleRows(text);
        if (!read.ok) throw new Error(read.reason);
        const compiled = compileSheet(text);
        if (!compiled.ok) throw new Error(`refused:\n${text}\n${compiled.problems.map((p) => p.message).join('\n')}`);
        expect(text.startsWith('# built by the form\n')).toBe(true);
        expect(text).not.toMatch(/\t/);

        rules.forEach(([action, fields], index) => {
          const row = read.rows[index]?.fields;
          const engine = compiled.sheet.rules[index];
          expect(row?.action).toBe(action);
          expect(engine?.action).toBe(action);
          if ('never' in fields) {
            expect(engine?.never).toBe(true);
            return;
          }
          expect(row?.requires).toEqual(fields.requires);
          expect(engine?.requires).toEqual(fields.requires);
          expect(row?.after).toEqual(fields.after);
          expect(engine?.not_after).toEqual(fields.not_after);
          expect(row?.at_most).toEqual(fields.at_most === undefined ? undefined : String(fields.at_most));
          expect(engine?.at_most).toEqual(fields.at_most);
          // The form trims what it writes, as the engine trims what it reads.
          expect(row?.confirmation).toEqual(fields.confirmation?.trim());
          expect(engine?.confirmation).toEqual(fields.confirmation?.trim());
          const when = fields.when?.length ? fields.when : undefined;
          expect(row?.when?.map((c) => ({ ...c, value: scalarOf(c.value) }))).toEqual(
            when?.map((c) => ({ ...c, value: scalarOf(c.value) })),
          );
          expect(engine?.when).toEqual(
            when?.map((c) => {
              const typed = scalarOf(c.value);
              const value =
                typed instanceof WrittenNumber
                  ? { decimal: typed.text }
                  : typeof typed === 'boolean'
                    ? { boolean: typed }
                    : { string: typed };
              return { arg: c.argument, op: OPS[c.comparison], value };
            }),
          );
        });
      }),
      { numRuns: 100 },
    );
  });
});
