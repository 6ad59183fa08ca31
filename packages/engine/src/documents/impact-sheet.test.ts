// Sheet impact: each loosening of a rule with its exact subject; narrowings and identity never flagged.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeSheetImpact } from './impact-sheet.ts';

const RUNNING = `# The shop's rules.
rules:
  - action: refund_card
    requires: [supervisor_approved, ticket_open]
    when: { amount_over: 200, currency_is: USD }
  - action: charge_card
    requires_confirmation: true
  - action: send_receipt
    after: [charge_card]
    not_after: [close_account]
    at_most: 1
  - action: delete_customer
    never: true
  - action: ship_order
    check: [{field: quantity, at_most: 10}]
  - action: refund_cash
    requires: [manager_present]
`;

function subjects(after: string, before = RUNNING): string[] {
  const impact = analyzeSheetImpact(before, after);
  expect(impact.widensSecurity).toBe(impact.widenedSubjects.length > 0);
  return impact.widenedSubjects;
}

const swap = (from: string, to: string) => {
  if (!RUNNING.includes(from)) throw new Error(`no ${from}`);
  return RUNNING.replace(from, to);
};

describe('sheet impact: widenings', () => {
  it.each([
    [
      'a requirement dropped',
      swap('[supervisor_approved, ticket_open]', '[supervisor_approved]'),
      ['rules/refund_card requires ticket_open dropped'],
    ],
    ['a threshold raised', swap('amount_over: 200', 'amount_over: 500'), ['rules/refund_card when amount_over 200 -> 500']],
    [
      'a condition added to when',
      swap('when: { amount_over: 200, currency_is: USD }', 'when: { amount_over: 200, currency_is: USD, channel_is: web }'),
      ['rules/refund_card when channel_is "web" added'],
    ],
    [
      'when added where the requirement applied always',
      swap('requires: [manager_present]', 'requires: [manager_present]\n    when: { amount_at_least: 50 }'),
      ['rules/refund_cash when amount_at_least 50 added'],
    ],
    [
      'a condition replaced by one stricter about the call',
      swap('amount_over: 200', 'amount_at_least: 300'),
      ['rules/refund_card when amount_at_least 300 added'],
    ],
    ['an equality changed', swap('currency_is: USD', 'currency_is: EUR'), ['rules/refund_card when currency_is "USD" -> "EUR"']],
    ['never dropped', swap('    never: true', '    requires: [admin]'), ['rules/delete_customer never dropped']],
    ['a whole rule removed', swap('  - action: delete_customer\n    never: true\n', ''), ['rules/delete_customer removed']],
    ['a confirmation dropped', swap('requires_confirmation: true', 'at_most: 5'), ['rules/charge_card confirmation dropped']],
    ['an order rule dropped', swap('    after: [charge_card]\n', ''), ['rules/send_receipt after charge_card dropped']],
    ['at_most raised', swap('at_most: 1', 'at_most: 2'), ['rules/send_receipt at_most 1 -> 2']],
    ['at_most dropped', swap('    at_most: 1\n', ''), ['rules/send_receipt at_most dropped']],
    [
      'a check dropped',
      swap('check: [{field: quantity, at_most: 10}]', 'at_most: 3'),
      ['rules/ship_order check quantity at_most 10 dropped'],
    ],
    ['a check loosened', swap('at_most: 10}', 'at_most: 12}'), ['rules/ship_order check quantity at_most 10 -> 12']],
    [
      'every requirement dropped',
      swap('    requires: [supervisor_approved, ticket_open]\n    when: { amount_over: 200, currency_is: USD }\n', '    at_most: 3\n'),
      ['rules/refund_card requires supervisor_approved dropped', 'rules/refund_card requires ticket_open dropped'],
    ],
  ])('%s', (_name, after, expected) => {
    expect(subjects(after)).toEqual(expected);
  });

  it("lists every widening in the running sheet's order", () => {
    const after = swap('amount_over: 200', 'amount_over: 500')
      .replace('at_most: 1', 'at_most: 4')
      .replace('    never: true', '    requires: [admin]');
    expect(subjects(after)).toEqual([
      'rules/refund_card when amount_over 200 -> 500',
      'rules/send_receipt at_most 1 -> 4',
      'rules/delete_customer never dropped',
    ]);
  });
});

describe('sheet impact: narrowings and identity are never flagged', () => {
  it.each([
    ['a threshold lowered', swap('amount_over: 200', 'amount_over: 100')],
    ['over made at least', swap('amount_over: 200', 'amount_at_least: 200')],
    ['a when condition removed', swap('when: { amount_over: 200, currency_is: USD }', 'when: { amount_over: 200 }')],
    ['when removed: the requirement always applies', swap('    when: { amount_over: 200, currency_is: USD }\n', '')],
    ['a requirement added', swap('[manager_present]', '[manager_present, receipt_printed]')],
    ['a rule turned never', swap('requires: [manager_present]', 'never: true')],
    ['a rule added', `${RUNNING}  - action: close_account\n    requires_confirmation: true\n`],
    [
      'rules reordered, comments changed',
      RUNNING.replace("# The shop's rules.", '# Reordered.')
        .replace('  - action: refund_cash\n    requires: [manager_present]\n', '')
        .replace('rules:\n', 'rules:\n  - action: refund_cash\n    requires: [manager_present]\n'),
    ],
    ['confirmation words given', swap('requires_confirmation: true', 'confirmation: "Charge the card?"')],
    ['identical', RUNNING],
  ])('%s', (_name, after) => {
    expect(subjects(after)).toEqual([]);
  });

  it('a first sheet, or a text that does not load, widens nothing', () => {
    expect(analyzeSheetImpact(undefined, RUNNING)).toEqual({ widensSecurity: false, widenedSubjects: [] });
    expect(analyzeSheetImpact(RUNNING, 'rules:\n\t- action: x\n')).toEqual({ widensSecurity: false, widenedSubjects: [] });
  });

  it('a generated sheet never widens against itself, and lowering any over threshold never widens', () => {
    const rule = fc.record({
      action: fc.constantFrom('a', 'b', 'c', 'd'),
      requires: fc.subarray(['x', 'y', 'z'], { minLength: 1 }),
      over: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: undefined }),
      atMost: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
    });
    const sheetArb = fc.uniqueArray(rule, { selector: (r) => r.action, maxLength: 4 });
    const write = (rules: { action: string; requires: string[]; over?: number | undefined; atMost?: number | undefined }[]) =>
      `rules:\n${rules
        .map(
          (r) =>
            `  - action: ${r.action}\n    requires: [${r.requires.join(', ')}]\n${r.over === undefined ? '' : `    when: { amount_over: ${r.over} }\n`}${r.atMost === undefined ? '' : `    at_most: ${r.atMost}\n`}`,
        )
        .join('')}`;
    fc.assert(
      fc.property(sheetArb, fc.integer({ min: 0, max: 1000 }), (rules, cut) => {
        const text = write(rules);
        expect(analyzeSheetImpact(text, text).widenedSubjects).toEqual([]);
        const lowered = write(rules.map((r) => (r.over === undefined ? r : { ...r, over: Math.max(0, r.over - cut) })));
        expect(analyzeSheetImpact(text, lowered).widenedSubjects).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
