// The lints of a sheet against a catalogue (docs/rule-sheets.md, "Lints"): rule_action_unknown at the
// rule's line, write_ungoverned at the line of rules:, formatted `FILE:LINE: lint CODE: message`; advice
// that never stops a compile.
import { describe, expect, it } from 'vitest';
import { type Catalogue, readCatalogue } from '../rulebook/catalogue.ts';
import { compileSheet, formatLint } from './compile.ts';
import { LINT_CODES, lintSheet } from './lint.ts';
import { readSheet } from './read-sheet.ts';

const CATALOGUE = `tools:
  - {name: refund_card, action: refund.issue, kind: write, amount: {pointer: /amount, currency: EUR}}
  - {name: charge_card, action: payments.charge, kind: write}
  - {name: send_receipt, action: receipts.send, kind: write}
  - {name: delete_customer, action: customers.delete, kind: write}
  - {name: check_stock, action: stock.check, kind: read}
  - {name: lookup_order, action: orders.read, kind: read}
`;

function catalogue(text = CATALOGUE): Catalogue {
  const read = readCatalogue(text, 'yaml');
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.catalogue;
}

const SHEET = `# The shop's rules, with a typo.
rules:
  - action: refund_card
    requires: [supervisor_approved]
    when: { amount_over: 200 }
  - action: charge_card
    requires_confirmation: true
  - action: refund_crad
    never: true
  - action: print_label
    at_most: 1
`;

describe('sheet lints against a catalogue', () => {
  it('names each rule for an action the catalogue does not hold, at the rule’s line', () => {
    const r = compileSheet(SHEET, catalogue(), 'rules.yaml');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const unknown = r.lints.filter((l) => l.code === 'rule_action_unknown');
    expect(unknown.map((l) => [l.line, l.severity, l.message])).toEqual([
      [8, 'warning', 'the sheet has a rule for `refund_crad`, which the catalogue does not hold'],
      [10, 'warning', 'the sheet has a rule for `print_label`, which the catalogue does not hold'],
    ]);
  });

  it('names each write the sheet never names, at the line of rules:, and never a read', () => {
    const r = compileSheet(SHEET, catalogue(), 'rules.yaml');
    if (!r.ok) throw new Error('expected a compile');
    const ungoverned = r.lints.filter((l) => l.code === 'write_ungoverned');
    expect(ungoverned.map((l) => [l.line, l.severity, l.message])).toEqual([
      [2, 'warning', "the catalogue's write `send_receipt` has no rule in the sheet; name it so it is not left ungoverned by omission"],
      [2, 'warning', "the catalogue's write `delete_customer` has no rule in the sheet; name it so it is not left ungoverned by omission"],
    ]);
    expect(r.lints).toHaveLength(4);
  });

  it('formats each lint as FILE:LINE:COLUMN: CODE: message (warning)', () => {
    const r = compileSheet(SHEET, catalogue(), 'rules.yaml');
    if (!r.ok) throw new Error('expected a compile');
    expect(r.lints.map((l) => formatLint('rules.yaml', l)).sort()).toEqual([
      'rules.yaml:10:1: rule_action_unknown: the sheet has a rule for `print_label`, which the catalogue does not hold (warning)',
      "rules.yaml:2:1: write_ungoverned: the catalogue's write `delete_customer` has no rule in the sheet; name it so it is not left ungoverned by omission (warning)",
      "rules.yaml:2:1: write_ungoverned: the catalogue's write `send_receipt` has no rule in the sheet; name it so it is not left ungoverned by omission (warning)",
      'rules.yaml:8:1: rule_action_unknown: the sheet has a rule for `refund_crad`, which the catalogue does not hold (warning)',
    ]);
  });

  it('never stops a compile: the Colang, rulebook and overlay are those compiled without a catalogue', () => {
    const linted = compileSheet(SHEET, catalogue(), 'rules.yaml');
    const plain = compileSheet(SHEET, undefined, 'rules.yaml');
    expect(linted.ok && plain.ok).toBe(true);
    if (!linted.ok || !plain.ok) return;
    expect(plain.lints).toEqual([]);
    expect(linted.colang).toBe(plain.colang);
    expect(linted.rulebook).toEqual(plain.rulebook);
    expect(linted.overlay).toEqual(plain.overlay);
    expect(linted.sourceMap).toEqual(plain.sourceMap);
  });

  it('counts a write as named by any rule, even one that only sets its overlay', () => {
    const r = compileSheet(
      `rules:
  - action: refund_card
    at_most: 1
  - action: charge_card
    requires_confirmation: true
  - action: send_receipt
    after: [charge_card]
  - action: delete_customer
    never: true
`,
      catalogue(),
    );
    expect(r.ok && r.lints).toEqual([]);
  });

  it('lints nothing of a sheet that is refused: the refusal is all there is', () => {
    const r = compileSheet('rules:\n  - action: nowhere\n    bogus: 1\n', catalogue());
    expect(r.ok).toBe(false);
    expect('lints' in r).toBe(false);
  });

  it('places write_ungoverned at the line of rules: wherever it is', () => {
    const read = readSheet('# a header\n\n# more\nrules: []\n');
    if (!read.ok) throw new Error('expected a read');
    expect(lintSheet(read.sheet, { tools: [{ name: 'w', kind: 'write' }] }).map((l) => [l.code, l.line])).toEqual([
      ['write_ungoverned', 4],
    ]);
  });

  it('reads only names and kinds, so a plain tool list lints as the catalogue does', () => {
    const read = readSheet(SHEET);
    if (!read.ok) throw new Error('expected a read');
    const fromCatalogue = lintSheet(read.sheet, catalogue());
    const fromNames = lintSheet(read.sheet, { tools: catalogue().tools.map((t) => ({ name: t.name, kind: t.kind })) });
    expect(fromNames).toEqual(fromCatalogue);
  });

  it('documents both codes', () => {
    expect(Object.keys(LINT_CODES).sort()).toEqual(['rule_action_unknown', 'write_ungoverned']);
  });
});
