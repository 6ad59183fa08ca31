import { compileSheet, type Diagnostic } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { placeProblemsByRow } from './problems-by-row.ts';
import { readRuleRows } from './read-rule-rows.ts';

const SHEET = `rules:
  - action: issue_refund
    at_most: 5
  # payouts are confirmed
  - action: send_payout
    requires_confirmation: true
    colour: blue
  - action: export_customers
    never: true
    at_most: 1
`;

function rowsOf(text: string) {
  const read = readRuleRows(text);
  if (!read.ok) throw new Error(read.reason);
  return read.rows;
}

describe('placeProblemsByRow', () => {
  it('puts each refusal beside the rule whose lines hold it', () => {
    const r = compileSheet(SHEET);
    if (r.ok) throw new Error('the sheet should be refused');
    const placed = placeProblemsByRow(r.problems, rowsOf(SHEET));
    expect(placed.sheet).toEqual([]);
    expect([...placed.byRow.keys()]).toEqual([1, 2]);
    expect(placed.byRow.get(1)?.map((p) => p.message)).toEqual([expect.stringContaining('"colour" is not a key of a rule')]);
    expect(placed.byRow.get(2)?.map((p) => p.message)).toEqual([expect.stringContaining('never with at_most beside it')]);
  });

  it('puts a lint at the rules: line with the sheet, and an unknown action beside its rule', () => {
    const text = 'rules:\n  - action: issue_refund\n    at_most: 5\n  - action: sned_payout\n    never: true\n';
    const catalogue = {
      tools: [
        { name: 'issue_refund', kind: 'write' as const },
        { name: 'send_payout', kind: 'write' as const },
      ],
    };
    const r = compileSheet(text, catalogue);
    if (!r.ok) throw new Error('the sheet should compile');
    const placed = placeProblemsByRow(r.lints, rowsOf(text));
    expect(placed.sheet.map((p) => p.code)).toEqual(['write_ungoverned']);
    expect(placed.byRow.get(1)?.map((p) => p.code)).toEqual(['rule_action_unknown']);
    expect(placed.byRow.has(0)).toBe(false);
  });

  it('keeps a problem with no line, or on a comment between rules, with the sheet', () => {
    const lineless: Diagnostic = { code: 'rule_sheet_unsupported', severity: 'error', message: 'somewhere' };
    const onComment: Diagnostic = { ...lineless, line: 4, column: 1, endLine: 4, endColumn: 1 };
    expect(placeProblemsByRow([lineless, onComment], rowsOf(SHEET))).toEqual({ byRow: new Map(), sheet: [lineless, onComment] });
  });
});
