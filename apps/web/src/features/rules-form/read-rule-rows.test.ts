import { describe, expect, it } from 'vitest';
import { conditionKey, readRuleRows, splitConditionKey } from './read-rule-rows.ts';

const SHEET = `# The shop's rules.
rules:
  - action: refund_card
    requires: [supervisor_approved]
    when: {amount_over: 200.50, tier_is: "gold"}
    # no more than twice
    at_most: 2
  - action: charge_card
    confirmation: "Charge the card?"
    check: [{field: quantity, at_most: 10}, {field: country, in: [DE, FR]}]
  - action: close_account
    never: true
    colour: blue
  - {action: flow_rule, never: true}
`;

describe('readRuleRows', () => {
  const read = readRuleRows(SHEET);
  if (!read.ok) throw new Error(read.reason);

  it('reads one row per rule, in order, with the lines each spans', () => {
    expect(read.rulesLine).toBe(2);
    expect(read.rows.map((r) => [r.fields.action, r.lines])).toEqual([
      ['refund_card', { from: 3, to: 7 }],
      ['charge_card', { from: 8, to: 10 }],
      ['close_account', { from: 11, to: 13 }],
      ['', { from: 14, to: 14 }],
    ]);
  });

  it('reads each key as the form shows it, values as written', () => {
    expect(read.rows[0]?.fields).toEqual({
      action: 'refund_card',
      requires: ['supervisor_approved'],
      when: [
        { argument: 'amount', comparison: 'over', value: '200.50' },
        { argument: 'tier', comparison: 'is', value: '"gold"' },
      ],
      at_most: '2',
    });
    expect(read.rows[1]?.fields).toEqual({
      action: 'charge_card',
      confirmation: 'Charge the card?',
      check: ['{field: quantity, at_most: 10}', '{field: country, in: [DE, FR]}'],
    });
  });

  it('lists keys a rule does not have, and marks a rule written as a flow mapping as not editable', () => {
    expect(read.rows[2]).toMatchObject({ fields: { action: 'close_account', never: true }, otherKeys: ['colour'], editable: true });
    expect(read.rows[3]?.editable).toBe(false);
  });

  it('reads an empty sheet as no rows', () => {
    expect(readRuleRows('rules: []\n')).toEqual({ ok: true, rows: [], rulesLine: 1 });
    expect(readRuleRows('# nothing yet\nrules:\n')).toEqual({ ok: true, rows: [], rulesLine: 2 });
  });

  it('says why when the YAML does not read or is not a sheet', () => {
    expect(readRuleRows('rules:\n  - action: [a\n')).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the YAML does not read \(line \d\)/),
    });
    expect(readRuleRows('tools: []\n')).toEqual({ ok: false, reason: 'the sheet has no rules: key' });
    expect(readRuleRows('- a\n')).toEqual({ ok: false, reason: 'a sheet is one mapping with the key rules:' });
  });
});

describe('condition keys', () => {
  it('splits the longest comparison first, as the engine reads it', () => {
    expect(splitConditionKey('amount_at_least')).toEqual({ argument: 'amount', comparison: 'at_least' });
    expect(splitConditionKey('limit_at_most')).toEqual({ argument: 'limit', comparison: 'at_most' });
    expect(splitConditionKey('is_vip_is')).toEqual({ argument: 'is_vip', comparison: 'is' });
    expect(splitConditionKey('colour')).toEqual({ argument: 'colour', comparison: '' });
  });

  it('joins back to the key it was split from', () => {
    for (const key of ['amount_over', 'amount_under', 'x_at_least', 'x_at_most', 'tier_is', 'colour']) {
      expect(conditionKey(splitConditionKey(key))).toBe(key);
    }
  });
});
