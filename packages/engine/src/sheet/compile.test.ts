// compileSheet on every key of a sheet (docs/rule-sheets.md): the Colang it equals, the rulebook IR the Colang front
// end makes of it, and the catalogue overlay; the reference example sheet end to end; its unsupported.yaml refusal,
// verbatim.
import { describe, expect, it } from 'vitest';
import { SHOP_SHEET } from '../../test/fixtures/shop.ts';
import { parseColang } from '../colang/parse.ts';
import { canonicalJson, formatRulebook } from '../rulebook/canonical.ts';
import {
  type CatalogueOverlay,
  type Expr,
  OVERLAY_FORMAT,
  RULEBOOK_FORMAT,
  type Rulebook,
  type ToolDeclarations,
} from '../rulebook/types.ts';
import { compileSheet, formatRefusal, type SheetCompileResult } from './compile.ts';

const HEADER = '# Compiled from rules.yaml by tollgate. Deny by default: an action with a flow runs only where its guard holds.\n';

function sheet(...lines: string[]): string {
  return `${lines.join('\n')}\n`;
}

type Compiled = Extract<SheetCompileResult, { ok: true }>;

function compiled(text: string): Compiled {
  const r = compileSheet(text);
  if (!r.ok) throw new Error(`expected the sheet to compile: ${JSON.stringify(r.problems)}`);
  // Whatever it holds, the Colang goes back through the front end to the very same rulebook.
  const again = parseColang(r.colang);
  expect(again.ok).toBe(true);
  if (again.ok) expect(canonicalJson(again.rulebook)).toBe(canonicalJson(r.rulebook));
  return r;
}

function rulebook(...flows: Rulebook['flows']): Rulebook {
  return { format: RULEBOOK_FORMAT, flows };
}

function overlay(tools: Record<string, ToolDeclarations> = {}): CatalogueOverlay {
  return { format: OVERLAY_FORMAT, tools };
}

/** The rule `a` with `requires: [x]` and one `when` condition: its Colang body and its guard. */
function when(condition: string): Compiled {
  return compiled(sheet('rules:', '  - action: a', '    requires: [x]', `    when: { ${condition} }`));
}

function whenGuard(comparison: Expr): Expr {
  return { any: [{ context: 'x' }, { not: comparison }] };
}

function whenColang(comparison: string): string {
  return `${HEADER}\ndefine context when_a on a\n  ${comparison}\n\ndefine flow a\n  allow when not $when_a or $x\n`;
}

describe('compileSheet: each key, as Colang, rulebook and overlay', () => {
  it('requires: one context, a deny-by-default flow guarded on it', () => {
    const r = compiled(sheet('rules:', '  - action: export_data', '    requires: [gdpr_ok]'));
    expect(r.colang).toBe(`${HEADER}\ndefine flow export_data\n  allow when $gdpr_ok\n`);
    expect(r.rulebook).toEqual(rulebook({ action: 'export_data', allow_when: { context: 'gdpr_ok' } }));
    expect(r.overlay).toEqual(overlay());
  });

  it('requires: several contexts, all of them', () => {
    const r = compiled(sheet('rules:', '  - action: export_data', '    requires: [manager_ok, gdpr_ok, dpo_ok]'));
    expect(r.colang).toBe(`${HEADER}\ndefine flow export_data\n  allow when $manager_ok and $gdpr_ok and $dpo_ok\n`);
    expect(r.rulebook).toEqual(
      rulebook({ action: 'export_data', allow_when: { all: [{ context: 'dpo_ok' }, { context: 'gdpr_ok' }, { context: 'manager_ok' }] } }),
    );
    expect(r.overlay).toEqual(overlay());
  });

  it('when _over: a computed context "amount > 200", the guard "not when or requires"', () => {
    const r = when('amount_over: 200');
    expect(r.colang).toBe(whenColang('amount > 200'));
    expect(r.rulebook).toEqual(rulebook({ action: 'a', allow_when: whenGuard({ arg: 'amount', op: 'gt', value: { decimal: '200' } }) }));
    expect(r.overlay).toEqual(overlay());
  });

  it('when _under, _at_least, _at_most: <, >=, <=', () => {
    expect(when('amount_under: 10').colang).toBe(whenColang('amount < 10'));
    expect(when('amount_under: 10').rulebook.flows[0]).toEqual({
      action: 'a',
      allow_when: whenGuard({ arg: 'amount', op: 'lt', value: { decimal: '10' } }),
    });
    expect(when('stock_at_least: 0').colang).toBe(whenColang('stock >= 0'));
    expect(when('stock_at_least: 0').rulebook.flows[0]).toEqual({
      action: 'a',
      allow_when: whenGuard({ arg: 'stock', op: 'gte', value: { decimal: '0' } }),
    });
    expect(when('amount_at_most: -3').colang).toBe(whenColang('amount <= -3'));
    expect(when('amount_at_most: -3').rulebook.flows[0]).toEqual({
      action: 'a',
      allow_when: whenGuard({ arg: 'amount', op: 'lte', value: { decimal: '-3' } }),
    });
  });

  it('when _is: ==, with a number, a string or a boolean', () => {
    expect(when('count_is: 3').colang).toBe(whenColang('count == 3'));
    expect(when('count_is: 3').rulebook.flows[0]).toEqual({
      action: 'a',
      allow_when: whenGuard({ arg: 'count', op: 'eq', value: { decimal: '3' } }),
    });
    expect(when('country_is: "DE"').colang).toBe(whenColang('country == "DE"'));
    expect(when('country_is: DE').rulebook.flows[0]).toEqual({
      action: 'a',
      allow_when: whenGuard({ arg: 'country', op: 'eq', value: { string: 'DE' } }),
    });
    expect(when('urgent_is: true').colang).toBe(whenColang('urgent == true'));
    expect(when('urgent_is: false').rulebook.flows[0]).toEqual({
      action: 'a',
      allow_when: whenGuard({ arg: 'urgent', op: 'eq', value: { boolean: false } }),
    });
  });

  it('when: decimals are normalised; strings are written as JSON strings', () => {
    expect(when('amount_over: 200.50').colang).toBe(whenColang('amount > 200.5'));
    expect(when('amount_over: 200.50').rulebook).toEqual(when('amount_over: 200.5').rulebook);
    expect(when('amount_over: -0.0').colang).toBe(whenColang('amount > 0'));
    expect(when('note_is: "a \\"quoted\\" # not a comment"').colang).toBe(whenColang('note == "a \\"quoted\\" # not a comment"'));
    expect(when('note_is: "a \\"quoted\\" # not a comment"').rulebook.flows[0]).toEqual({
      action: 'a',
      allow_when: whenGuard({ arg: 'note', op: 'eq', value: { string: 'a "quoted" # not a comment' } }),
    });
  });

  it('when with several conditions: all of them, one comparison line each; several requirements parenthesised', () => {
    const r = compiled(
      sheet(
        'rules:',
        '  - action: transfer',
        '    requires: [two_person_ok, cfo_ok]',
        '    when: { amount_at_least: 1000, currency_is: "EUR", urgent_is: false }',
      ),
    );
    expect(r.colang).toBe(
      `${HEADER}\ndefine context when_transfer on transfer\n  amount >= 1000\n  currency == "EUR"\n  urgent == false\n\n` +
        'define flow transfer\n  allow when not $when_transfer or ($two_person_ok and $cfo_ok)\n',
    );
    expect(r.rulebook).toEqual(
      rulebook({
        action: 'transfer',
        allow_when: {
          any: [
            { all: [{ context: 'cfo_ok' }, { context: 'two_person_ok' }] },
            {
              not: {
                all: [
                  { arg: 'amount', op: 'gte', value: { decimal: '1000' } },
                  { arg: 'currency', op: 'eq', value: { string: 'EUR' } },
                  { arg: 'urgent', op: 'eq', value: { boolean: false } },
                ],
              },
            },
          ],
        },
      }),
    );
  });

  it('never: a flow that refuses the action unconditionally', () => {
    const r = compiled(sheet('rules:', '  - action: delete_customer', '    never: true'));
    expect(r.colang).toBe(`${HEADER}\ndefine flow delete_customer\n  refuse\n`);
    expect(r.rulebook).toEqual(rulebook({ action: 'delete_customer', refuse: true }));
    expect(r.overlay).toEqual(overlay());
  });

  it('requires_confirmation: true: no flow, a confirmation with the default words in the overlay', () => {
    const r = compiled(sheet('rules:', '  - action: charge_card', '    requires_confirmation: true'));
    expect(r.colang).toBe(HEADER);
    expect(r.rulebook).toEqual(rulebook());
    expect(r.overlay).toEqual(overlay({ charge_card: { confirmation: 'Confirm the call to charge_card?' } }));
  });

  it('requires_confirmation: false alone says nothing: refused at the action, so it cannot silence write_ungoverned', () => {
    const r = compileSheet(sheet('rules:', '  - action: charge_card', '    requires_confirmation: false'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => [p.code, p.line])).toEqual([['rule_sheet_unsupported', 2]]);
    expect(r.problems[0]?.message).toContain('the rule for `charge_card` says nothing');
  });

  it('requires_confirmation: false beside another key: that key is what the rule says', () => {
    const r = compiled(sheet('rules:', '  - action: charge_card', '    requires_confirmation: false', '    at_most: 2'));
    expect(r.colang).toBe(HEADER);
    expect(r.overlay).toEqual(overlay({ charge_card: { at_most: 2 } }));
  });

  it('confirmation: the words the person is asked, alone or beside requires_confirmation', () => {
    const alone = compiled(sheet('rules:', '  - action: close_account', '    confirmation: "Close this account for good?"'));
    expect(alone.colang).toBe(HEADER);
    expect(alone.rulebook).toEqual(rulebook());
    expect(alone.overlay).toEqual(overlay({ close_account: { confirmation: 'Close this account for good?' } }));
    const both = compiled(
      sheet('rules:', '  - action: close_account', '    requires_confirmation: true', '    confirmation: "Close this account for good?"'),
    );
    expect(both.overlay).toEqual(alone.overlay);
  });

  it('after and not_after: order rules in the overlay, no flow', () => {
    const r = compiled(sheet('rules:', '  - action: send_receipt', '    after: [charge_card, print_slip]', '    not_after: [refund_card]'));
    expect(r.colang).toBe(HEADER);
    expect(r.rulebook).toEqual(rulebook());
    expect(r.overlay).toEqual(overlay({ send_receipt: { after: ['charge_card', 'print_slip'], not_after: ['refund_card'] } }));
  });

  it('at_most: how many calls a session may make, in the overlay', () => {
    const r = compiled(sheet('rules:', '  - action: send_receipt', '    at_most: 3'));
    expect(r.colang).toBe(HEADER);
    expect(r.rulebook).toEqual(rulebook());
    expect(r.overlay).toEqual(overlay({ send_receipt: { at_most: 3 } }));
  });

  it('check with a value, a list and {from: tool.field}: the tool’s conditions, in the overlay', () => {
    const r = compiled(
      sheet(
        'rules:',
        '  - action: send_order',
        '    check: [{field: quantity, at_most: 10}, {field: country, not_in: [XX, "YY"]}, {field: quantity, at_most: {from: check_stock.in_stock}}]',
      ),
    );
    expect(r.colang).toBe(HEADER);
    expect(r.rulebook).toEqual(rulebook());
    expect(r.overlay).toEqual(
      overlay({
        send_order: {
          checks: [
            { field: 'quantity', op: 'at_most', value: { decimal: '10' } },
            { field: 'country', op: 'not_in', value: [{ string: 'XX' }, { string: 'YY' }] },
            { field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'in_stock' } },
          ],
        },
      }),
    );
  });

  it('every key at once: the flow in the rulebook, the rest in the overlay, nothing lost', () => {
    const r = compiled(
      sheet(
        'rules:',
        '  - action: refund_card',
        '    requires: [supervisor_approved]',
        '    when: { amount_over: 200 }',
        '    confirmation: "Refund this card?"',
        '    after: [charge_card]',
        '    not_after: [close_account]',
        '    at_most: 2',
        '    check: [{field: reason, in: [damaged, late]}]',
      ),
    );
    expect(r.rulebook).toEqual(
      rulebook({
        action: 'refund_card',
        allow_when: { any: [{ context: 'supervisor_approved' }, { not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }] },
      }),
    );
    expect(r.overlay).toEqual(
      overlay({
        refund_card: {
          confirmation: 'Refund this card?',
          after: ['charge_card'],
          not_after: ['close_account'],
          at_most: 2,
          checks: [{ field: 'reason', op: 'in', value: [{ string: 'damaged' }, { string: 'late' }] }],
        },
      }),
    );
  });

  it('sorts the overlay’s tools by name, and leaves out rules that set none of it', () => {
    const r = compiled(
      sheet(
        'rules:',
        '  - action: zeta',
        '    at_most: 1',
        '  - action: delete_customer',
        '    never: true',
        '  - action: alpha',
        '    after: [zeta]',
      ),
    );
    expect(Object.keys(r.overlay.tools)).toEqual(['alpha', 'zeta']);
    expect(canonicalJson(r.overlay)).toBe(
      '{"format":"tollgate/catalogue-overlay@1","tools":{"alpha":{"after":["zeta"]},"zeta":{"at_most":1}}}',
    );
  });

  it('maps each flow to the line of its rule in the sheet, and names the sheet', () => {
    const r = compileSheet(
      sheet(
        '# rules',
        'rules:',
        '  - action: charge_card',
        '    at_most: 1',
        '  - action: b',
        '    never: true',
        '  - action: a',
        '    requires: [x]',
      ),
      undefined,
      'shop.yaml',
    );
    expect(r.ok && r.sourceMap).toEqual({ file: 'shop.yaml', flows: { b: { line: 5 }, a: { line: 7 } }, contexts: {} });
    expect(r.ok && r.colang.startsWith('# Compiled from shop.yaml by tollgate.')).toBe(true);
  });

  it('keeps no source position in the rulebook, so its file is the same wherever the rules sit', () => {
    const a = compiled(sheet('rules:', '  - action: a', '    requires: [x]', '  - action: b', '    never: true'));
    const b = compiled(sheet('# moved about', '', 'rules:', '  - action: b', '    never: true', '', '  - action: a', '    requires: [x]'));
    expect(formatRulebook(a.rulebook)).toBe(formatRulebook(b.rulebook));
  });
});

const SEED = SHOP_SHEET;

describe('the reference example sheet (docs/rule-sheets.md), end to end', () => {
  it('compiles to the Colang, the rulebook and the overlay docs/rule-sheets.md describes', () => {
    const r = compiled(SEED);
    expect(r.colang).toBe(
      `${HEADER}\ndefine context when_refund_card on refund_card\n  amount > 200\n\ndefine flow refund_card\n  allow when not $when_refund_card or $supervisor_approved\n`,
    );
    expect(formatRulebook(r.rulebook)).toBe(`{
  "flows": [
    {
      "action": "refund_card",
      "allow_when": {
        "any": [
          {
            "context": "supervisor_approved"
          },
          {
            "not": {
              "arg": "amount",
              "op": "gt",
              "value": {
                "decimal": "200"
              }
            }
          }
        ]
      }
    }
  ],
  "format": "tollgate/rulebook@1"
}
`);
    expect(r.overlay).toEqual(
      overlay({
        charge_card: { confirmation: 'Confirm the call to charge_card?' },
        send_receipt: { after: ['charge_card'], at_most: 1 },
      }),
    );
    expect(r.lints).toEqual([]);
    expect(r.sourceMap).toEqual({ file: 'rules.yaml', flows: { refund_card: { line: 3 } }, contexts: {} });
  });

  it('equals the rulebook of docs/colang.md’s hand-written Colang for it', () => {
    const colang = parseColang(
      "# The shop's rulebook.\ndefine context when_refund_card on refund_card\n  amount > 200\n\ndefine flow refund_card\n  allow when not $when_refund_card or $supervisor_approved\n",
    );
    expect(colang.ok && formatRulebook(colang.rulebook)).toBe(formatRulebook(compiled(SEED).rulebook));
  });
});

describe('the reference unsupported.yaml (docs/rule-sheets.md) and formatRefusal', () => {
  const UNSUPPORTED_YAML = sheet(
    'rules:',
    '  - action: refund_card',
    '    requires: [supervisor_approved]',
    '  - action: refund_card',
    '    never: true',
  );

  it('refuses a second rule of refund_card at line 4, in the words of docs/rule-sheets.md exactly', () => {
    const r = compileSheet(UNSUPPORTED_YAML, undefined, 'unsupported.yaml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map((p) => formatRefusal('unsupported.yaml', p))).toEqual([
      'unsupported.yaml:4:13: rule_sheet_unsupported: `refund_card` has a rule already: one rule per action, so how two would combine is never guessed. The sheet was not compiled; nothing was changed.',
    ]);
  });

  it('returns nothing of a refused sheet: no Colang, no rulebook, no overlay', () => {
    const r = compileSheet(UNSUPPORTED_YAML);
    expect(Object.keys(r).sort()).toEqual(['ok', 'problems']);
  });

  it('formats each problem with its own line, in the file’s name', () => {
    const r = compileSheet(sheet('rules:', '  - action: a', '    bogus: 1', '  - action: b', '    at_most: 0'));
    expect(r.ok ? [] : r.problems.map((p) => formatRefusal('rules/shop.yaml', p))).toEqual([
      'rules/shop.yaml:3:5: rule_sheet_unsupported: "bogus" is not a key of a rule: use action, requires, when, never, requires_confirmation, confirmation, after, not_after, at_most, check. The sheet was not compiled; nothing was changed.',
      'rules/shop.yaml:5:14: rule_sheet_unsupported: at_most is a positive whole number of calls per session. The sheet was not compiled; nothing was changed.',
    ]);
  });

  it('formats a problem the text does not place without a line', () => {
    expect(formatRefusal('x.yaml', { code: 'rule_sheet_unsupported', severity: 'error', message: 'why' })).toBe(
      'x.yaml: rule_sheet_unsupported: why. The sheet was not compiled; nothing was changed.',
    );
  });
});
