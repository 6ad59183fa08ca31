// Differential: reading a sheet rule by rule through the cache gives exactly what reading it whole gives,
// for valid sheets, mutated sheets and a cache warmed by earlier versions of the text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/rulebook/canonical.ts';
import { compileSheet } from '../src/sheet/compile.ts';
import { createSheetCache, readSheet } from '../src/sheet/read-sheet.ts';

const RULES = [
  '  - action: refund_card\n    requires: [supervisor_approved]\n    when: { amount_over: 200 }',
  '  - action: charge_card\n    requires_confirmation: true',
  '  - action: send_receipt\n    after: [charge_card]\n    at_most: 1',
  '  - action: delete_customer\n    never: true',
  '  - action: ship_order\n    check: [{field: quantity, at_most: {from: check_stock.in_stock}}]\n    # a comment inside a rule',
  '  - action: close_account\n    confirmation: "Close this account?"\n    not_after: [refund_card]',
  '  - action: refund_card\n    never: true',
  '  - action: pay\n    requires: [a, b]\n    when: { total_at_least: 10.50, country_is: "DE" }',
];

const MUTATIONS = [
  '\t',
  '---\n',
  '  - action: x\n',
  '    frob: 1\n',
  '#\n',
  '\n',
  '    requires:\n',
  'rules:\n',
  '  ',
  '- ',
  '[',
  '"',
  'other: 1\n',
];

const sheetArb = fc
  .tuple(fc.subarray(RULES, { minLength: 0 }), fc.array(fc.tuple(fc.nat(400), fc.constantFrom(...MUTATIONS)), { maxLength: 3 }))
  .map(([rules, mutations]) => {
    let text = `# a sheet\nrules:\n${rules.join('\n')}\n`;
    for (const [at, insert] of mutations) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + insert + text.slice(i);
    }
    return text;
  });

describe('reading a sheet rule by rule through the cache', () => {
  it('gives what reading it whole gives, refusals included', () => {
    const cache = createSheetCache();
    fc.assert(
      fc.property(sheetArb, (text) => {
        expect(canonicalJson(readSheet(text, cache))).toBe(canonicalJson(readSheet(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it('compiles to the same rulebook and overlay on every keystroke of a sheet being typed', () => {
    const full = `rules:\n${RULES.slice(0, 6).join('\n')}\n`;
    const cache = createSheetCache();
    let compiledSome = 0;
    for (let end = 0; end <= full.length; end++) {
      const text = full.slice(0, end);
      const whole = compileSheet(text);
      const cached = compileSheet(text, undefined, 'rules.yaml', cache);
      expect(canonicalJson(cached)).toBe(canonicalJson(whole));
      if (whole.ok && whole.sheet.rules.length > 0) compiledSome++;
    }
    expect(compiledSome).toBeGreaterThan(20);
  });

  it('shifts the lines of cached rules when lines are added above them', () => {
    const cache = createSheetCache();
    const text = `rules:\n${RULES[0]}\n${RULES[3]}\n`;
    readSheet(text, cache);
    const moved = readSheet(`# one\n# two\n${text}`, cache);
    expect(moved.ok && moved.sheet.rules.map((r) => [r.action, r.line])).toEqual([
      ['refund_card', 4],
      ['delete_customer', 7],
    ]);
  });
});
