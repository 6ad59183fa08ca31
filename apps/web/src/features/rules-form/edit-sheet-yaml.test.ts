import { compileSheet } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { addRule, type FieldEdit, removeRule, removeRuleKey, setRuleField } from './edit-sheet-yaml.ts';
import { readRuleRows } from './read-rule-rows.ts';

const SHEET = `# The shop's rules.
rules:
  # Refunds: a supervisor over 200.
  - action: refund_card # the card refund
    requires: [supervisor_approved]
    when: {amount_over: 200}

  - action: charge_card
    requires_confirmation: true   # always asked
  - action: send_receipt
    after: [charge_card]
    at_most: 1
`;

function edited(text: string, result: ReturnType<typeof setRuleField>): string {
  if (!result.ok) throw new Error(`the edit failed: ${result.reason}`);
  expect(result.text).not.toBe(text);
  return result.text;
}

function compiled(text: string) {
  const r = compileSheet(text);
  if (!r.ok) throw new Error(`refused: ${r.problems.map((p) => `${p.line}: ${p.message}`).join('; ')}`);
  return r;
}

/** The lines of `after` that are not in `before`, and the reverse: what an edit changed. */
function changedLines(before: string, after: string): { added: string[]; removed: string[] } {
  const a = before.split('\n');
  const b = after.split('\n');
  return { added: b.filter((l) => !a.includes(l)), removed: a.filter((l) => !b.includes(l)) };
}

describe('setRuleField', () => {
  it('writes each field back as it was read without changing a byte: comments, blank lines and order stay', () => {
    const read = readRuleRows(SHEET);
    if (!read.ok) throw new Error(read.reason);
    let text = SHEET;
    for (const row of read.rows) {
      const f = row.fields;
      const edits: FieldEdit[] = [{ key: 'action', value: f.action }];
      if (f.requires) edits.push({ key: 'requires', value: f.requires });
      if (f.when) edits.push({ key: 'when', value: f.when });
      if (f.requires_confirmation) edits.push({ key: 'requires_confirmation', value: true });
      if (f.after) edits.push({ key: 'after', value: f.after });
      if (f.at_most) edits.push({ key: 'at_most', value: f.at_most });
      for (const edit of edits) {
        const r = setRuleField(text, row.index, edit);
        if (!r.ok) throw new Error(r.reason);
        text = r.text;
      }
    }
    expect(text).toBe(SHEET);
  });

  it('changes only the touched value, keeping the comment after it', () => {
    const text = edited(SHEET, setRuleField(SHEET, 0, { key: 'action', value: 'refund_cash' }));
    expect(changedLines(SHEET, text)).toEqual({
      added: ['  - action: refund_cash # the card refund'],
      removed: ['  - action: refund_card # the card refund'],
    });
  });

  // Each field the form edits, the YAML line it writes, and what the engine compiles from it.
  const cases: { edit: FieldEdit; rule: number; line: string; expect: (r: ReturnType<typeof compiled>) => void }[] = [
    {
      edit: { key: 'requires', value: ['supervisor_approved', 'manager_present'] },
      rule: 0,
      line: '    requires: [supervisor_approved, manager_present]',
      expect: (r) => expect(r.colang).toContain('allow when not $when_refund_card or ($supervisor_approved and $manager_present)'),
    },
    {
      edit: { key: 'when', value: [{ argument: 'amount', comparison: 'at_least', value: '99.50' }] },
      rule: 0,
      line: '    when: {amount_at_least: 99.50}',
      expect: (r) => expect(r.colang).toContain('amount >= 99.5'),
    },
    {
      edit: {
        key: 'when',
        value: [
          { argument: 'tier', comparison: 'is', value: 'gold' },
          { argument: 'amount', comparison: 'under', value: '5' },
        ],
      },
      rule: 0,
      line: '    when: {tier_is: gold, amount_under: 5}',
      expect: (r) => expect(r.colang).toMatch(/tier == "gold"[\s\S]*amount < 5/),
    },
    {
      edit: { key: 'never', value: true },
      rule: 2,
      line: '    never: true',
      expect: () => undefined, // never beside after and at_most: asserted as a refusal below
    },
    {
      edit: { key: 'confirmation', value: 'Charge the card: are you sure?' },
      rule: 1,
      line: '    confirmation: "Charge the card: are you sure?"',
      expect: (r) => expect(r.overlay.tools.charge_card?.confirmation).toBe('Charge the card: are you sure?'),
    },
    {
      edit: { key: 'not_after', value: ['refund_card'] },
      rule: 2,
      line: '    not_after: [refund_card]',
      expect: (r) => expect(r.overlay.tools.send_receipt?.not_after).toEqual(['refund_card']),
    },
    {
      edit: { key: 'after', value: ['charge_card', 'refund_card'] },
      rule: 2,
      line: '    after: [charge_card, refund_card]',
      expect: (r) => expect(r.overlay.tools.send_receipt?.after).toEqual(['charge_card', 'refund_card']),
    },
    {
      edit: { key: 'at_most', value: '3' },
      rule: 2,
      line: '    at_most: 3',
      expect: (r) => expect(r.overlay.tools.send_receipt?.at_most).toBe(3),
    },
    {
      edit: { key: 'check', value: ['{field: quantity, at_most: {from: check_stock.in_stock}}', '{ field: country, in: [DE, FR] }'] },
      rule: 1,
      line: '    check: [{field: quantity, at_most: {from: check_stock.in_stock}}, {field: country, in: [DE, FR]}]',
      expect: (r) => expect(r.overlay.tools.charge_card?.checks).toHaveLength(2),
    },
  ];

  for (const c of cases) {
    it(`writes ${c.edit.key} on one line and the engine reads it`, () => {
      const text = edited(SHEET, setRuleField(SHEET, c.rule, c.edit));
      expect(text.split('\n')).toContain(c.line);
      if (c.edit.key === 'never') {
        const r = compileSheet(text);
        expect(r.ok).toBe(false);
        expect(!r.ok && r.problems.map((p) => p.message)).toEqual([expect.stringContaining('never with after, at_most beside it')]);
      } else c.expect(compiled(text));
    });
  }

  it('inserts a new key in the docs order, after the keys that come before it', () => {
    const text = edited(SHEET, setRuleField(SHEET, 2, { key: 'requires', value: ['receipt_wanted'] }));
    expect(text).toContain('  - action: send_receipt\n    requires: [receipt_wanted]\n    after: [charge_card]\n');
    expect(compiled(text).colang).toContain('define flow send_receipt\n  allow when $receipt_wanted');
  });

  it('removes a key when its value is emptied, and the compile changes with it', () => {
    const text = edited(SHEET, setRuleField(SHEET, 2, { key: 'after', value: [] }));
    expect(changedLines(SHEET, text)).toEqual({ added: [], removed: ['    after: [charge_card]'] });
    expect(compiled(text).overlay.tools.send_receipt).toEqual({ at_most: 1 });
  });

  it('keeps a number exactly as written, never through a float', () => {
    const value = '200.123456789012345678';
    const text = edited(SHEET, setRuleField(SHEET, 0, { key: 'when', value: [{ argument: 'amount', comparison: 'over', value }] }));
    expect(text).toContain(`when: {amount_over: ${value}}`);
    expect(compiled(text).colang).toContain(`amount > ${value}`);
  });

  it('quotes a typed string that would otherwise read as a number only when asked to', () => {
    const text = edited(SHEET, setRuleField(SHEET, 0, { key: 'when', value: [{ argument: 'code', comparison: 'is', value: '"200"' }] }));
    expect(text).toContain('when: {code_is: "200"}');
    expect(compiled(text).colang).toContain('code == "200"');
  });

  it("moves a value written on the line below its key up onto the key's line", () => {
    const below = 'rules:\n  - action: a\n    at_most:\n      2\n';
    expect(compileSheet(below).ok).toBe(false);
    const text = edited(below, setRuleField(below, 0, { key: 'at_most', value: '4' }));
    expect(text).toBe('rules:\n  - action: a\n    at_most: 4\n');
  });

  it('fills a key that has no value', () => {
    const empty = 'rules:\n  - action: a\n    never:\n';
    expect(edited(empty, setRuleField(empty, 0, { key: 'never', value: true }))).toBe('rules:\n  - action: a\n    never: true\n');
  });

  it('refuses a check that is not YAML on one line and leaves the text alone', () => {
    expect(setRuleField(SHEET, 0, { key: 'check', value: ['{field: quantity'] })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^check 1: not YAML/),
    });
  });

  it('refuses to edit a rule that is not a block mapping', () => {
    const flow = 'rules:\n  - {action: a, never: true}\n';
    expect(setRuleField(flow, 0, { key: 'at_most', value: '1' })).toEqual({ ok: false, reason: expect.stringContaining('rule 1') });
  });
});

describe('removeRuleKey', () => {
  it('removes a key the engine refuses, and the sheet compiles again', () => {
    const refused = SHEET.replace('    at_most: 1\n', '    colour: blue\n    at_most: 1\n');
    expect(compileSheet(refused).ok).toBe(false);
    const r = removeRuleKey(refused, 2, 'colour');
    expect(r).toEqual({ ok: true, text: SHEET });
  });

  it('removes the first key by moving the next one onto the dash line', () => {
    const text = 'rules:\n  - requires: [a]\n    action: x\n    at_most: 2\n';
    expect(removeRuleKey(text, 0, 'requires')).toEqual({ ok: true, text: 'rules:\n  - action: x\n    at_most: 2\n' });
  });
});

describe('addRule and removeRule', () => {
  it("adds a rule at the end of the list, after the last rule's lines", () => {
    const r = addRule(SHEET, 'read_order');
    if (!r.ok) throw new Error(r.reason);
    expect(r.text).toBe(`${SHEET}  - action: read_order\n`);
    // A rule that says nothing is refused, at its own line.
    const compile = compileSheet(r.text);
    expect(!compile.ok && compile.problems.map((p) => [p.line, p.message])).toEqual([
      [13, expect.stringContaining('the rule for `read_order` says nothing')],
    ]);
  });

  it('turns an empty sheet into a block list of one', () => {
    expect(addRule('# nothing yet\nrules: []\n', 'a')).toEqual({ ok: true, text: '# nothing yet\nrules:\n  - action: a\n' });
    expect(addRule('rules:\n', 'a')).toEqual({ ok: true, text: 'rules:\n  - action: a\n' });
  });

  it('removes a rule with the comment above it, leaving the others and their comments in order', () => {
    const r = removeRule(SHEET, 0);
    if (!r.ok) throw new Error(r.reason);
    expect(r.text).toBe(`# The shop's rules.
rules:

  - action: charge_card
    requires_confirmation: true   # always asked
  - action: send_receipt
    after: [charge_card]
    at_most: 1
`);
    expect(Object.keys(compiled(r.text).overlay.tools)).toEqual(['charge_card', 'send_receipt']);
  });

  it('removes the last rule, leaving an empty sheet the engine compiles', () => {
    const one = '# one rule\nrules:\n  - action: a\n    never: true\n';
    const r = removeRule(one, 0);
    expect(r).toEqual({ ok: true, text: '# one rule\nrules: []\n' });
    expect(r.ok && compiled(r.text).colang).not.toContain('define flow');
  });
});
