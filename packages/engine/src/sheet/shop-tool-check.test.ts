// The reference example sheet (docs/rule-sheets.md) enforced end to end: compiled, its overlay laid over a catalogue
// read from YAML, every call decided by checkTool. Each construct: the when bound, the required context, a computed
// context the host tries to set, a missing amount (fail closed), confirmation, order rules, at_most, checks.
import { describe, expect, it } from 'vitest';
import { SHOP_SHEET_EXTENDED } from '../../test/fixtures/shop.ts';
import { readCatalogue } from '../rulebook/catalogue.ts';
import type { SessionCall } from '../rulebook/check.ts';
import { layOverlay } from '../rulebook/overlay.ts';
import { checkTool, type ToolVerdict } from '../rulebook/tool-check.ts';
import { compileSheet } from './compile.ts';

// The reference sheet, lines 1-10 as docs/rule-sheets.md writes them, then rules for a check and a refusal.
const SHEET = SHOP_SHEET_EXTENDED;

const CATALOGUE = `tools:
  - {name: refund_card, action: refund.issue, kind: write, amount: {pointer: /amount, currency: EUR}}
  - {name: charge_card, action: payments.charge, kind: write}
  - {name: send_receipt, action: receipts.send, kind: write}
  - {name: send_order, action: orders.send, kind: write}
  - {name: delete_customer, action: customers.delete, kind: write}
  - {name: check_stock, action: stock.check, kind: read}
`;

function setUp() {
  const compiled = compileSheet(SHEET, undefined, 'rules.yaml');
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems));
  const read = readCatalogue(CATALOGUE, 'yaml');
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return { rulebook: compiled.rulebook, catalogue: layOverlay(read.catalogue, compiled.overlay), lints: compiled.lints };
}

const { rulebook, catalogue } = setUp();

interface More {
  contexts?: Record<string, unknown>;
  history?: SessionCall[];
  confirmed?: boolean;
}

function check(tool: string, args: unknown, more: More = {}): ToolVerdict {
  return checkTool({ rulebook, catalogue, call: { tool, arguments: args }, ...more });
}

const ALLOW = { verdict: 'allow' };

function refused(code: string, rule: string, reason?: string) {
  return { verdict: 'refuse', code, rule, reason: reason ?? expect.any(String) };
}

describe('refund_card: requires supervisor_approved when amount_over 200', () => {
  it('allows an amount under the bound, and at it, without the approval', () => {
    expect(check('refund_card', { amount: 150 })).toEqual(ALLOW);
    expect(check('refund_card', { amount: 200 })).toEqual(ALLOW);
    expect(check('refund_card', { amount: '200.00' })).toEqual(ALLOW);
    expect(check('refund_card', { amount: -5 })).toEqual(ALLOW);
  });

  it('refuses an amount over the bound without the approval, naming the context it needs', () => {
    expect(check('refund_card', { amount: 201 })).toEqual(
      refused('REQUIREMENT_UNMET', 'refund_card', 'refund_card needs supervisor_approved, which this call does not have.'),
    );
    expect(check('refund_card', { amount: '200.01' })).toEqual(refused('REQUIREMENT_UNMET', 'refund_card'));
  });

  it('allows it over the bound with the approval; false or anything but true is no approval', () => {
    expect(check('refund_card', { amount: 500 }, { contexts: { supervisor_approved: true } })).toEqual(ALLOW);
    expect(check('refund_card', { amount: 500 }, { contexts: { supervisor_approved: false } })).toEqual(
      refused('REQUIREMENT_UNMET', 'refund_card'),
    );
    for (const value of ['true', 1, null, {}]) {
      expect(check('refund_card', { amount: 500 }, { contexts: { supervisor_approved: value } })).toEqual(
        refused('REQUIREMENT_UNMET', 'refund_card'),
      );
    }
  });

  it('ignores a host context named like the computed one: when_refund_card: false changes nothing', () => {
    for (const amount of [150, 500]) {
      for (const value of [false, true]) {
        expect(check('refund_card', { amount }, { contexts: { when_refund_card: value } })).toEqual(check('refund_card', { amount }));
      }
    }
    expect(check('refund_card', { amount: 500 }, { contexts: { when_refund_card: false } })).toEqual(
      refused('REQUIREMENT_UNMET', 'refund_card'),
    );
  });

  it('applies the requirement where the amount is missing or unreadable (fail closed)', () => {
    for (const args of [{}, { amount: null }, { amount: 'lots' }, { amount: 250.5 }, { amount: '1e3' }, null, 'x', []]) {
      expect(check('refund_card', args)).toEqual(refused('REQUIREMENT_UNMET', 'refund_card'));
      expect(check('refund_card', args, { contexts: { supervisor_approved: true } })).toEqual(ALLOW);
    }
  });
});

describe('charge_card: requires_confirmation', () => {
  it('asks the person first, in the default words', () => {
    expect(check('charge_card', { amount: 10 })).toEqual({
      verdict: 'confirm',
      rule: 'charge_card',
      confirmation: 'Confirm the call to charge_card?',
    });
    expect(check('charge_card', { amount: 10 }, { confirmed: false })).toEqual({
      verdict: 'confirm',
      rule: 'charge_card',
      confirmation: 'Confirm the call to charge_card?',
    });
  });

  it('allows it once the person confirmed', () => {
    expect(check('charge_card', { amount: 10 }, { confirmed: true })).toEqual(ALLOW);
  });
});

describe('send_receipt: after charge_card, at_most 1', () => {
  it('refuses it before charge_card ran in the session', () => {
    expect(check('send_receipt', {})).toEqual(
      refused('ORDER_AFTER', 'send_receipt', 'send_receipt runs only after charge_card, and charge_card has not run in this session.'),
    );
    expect(check('send_receipt', {}, { history: [{ tool: 'refund_card', arguments: { amount: 5 } }] })).toEqual(
      refused('ORDER_AFTER', 'send_receipt'),
    );
  });

  it('allows the first receipt after charge_card', () => {
    expect(check('send_receipt', {}, { history: [{ tool: 'charge_card', arguments: { amount: 10 } }] })).toEqual(ALLOW);
  });

  it('refuses a second receipt in the session', () => {
    const history = [
      { tool: 'charge_card', arguments: { amount: 10 } },
      { tool: 'send_receipt', arguments: {} },
    ];
    expect(check('send_receipt', {}, { history })).toEqual(
      refused('AT_MOST_EXCEEDED', 'send_receipt', 'send_receipt runs at most once in a session, and it has run once.'),
    );
    // A second charge does not reset the count: at_most counts the whole session.
    expect(check('send_receipt', {}, { history: [...history, { tool: 'charge_card', arguments: { amount: 3 } }] })).toEqual(
      refused('AT_MOST_EXCEEDED', 'send_receipt'),
    );
  });
});

describe('send_order: checks against the call and an earlier tool’s result', () => {
  const stock = (in_stock: unknown): SessionCall => ({ tool: 'check_stock', arguments: { sku: 'A1' }, result: { in_stock } });

  it('allows a quantity within what check_stock returned', () => {
    expect(check('send_order', { quantity: 3, country: 'DE' }, { history: [stock(5)] })).toEqual(ALLOW);
    expect(check('send_order', { quantity: 5, country: 'FR' }, { history: [stock(5)] })).toEqual(ALLOW);
  });

  it('reads the most recent check_stock', () => {
    expect(check('send_order', { quantity: 5, country: 'DE' }, { history: [stock(9), stock(4)] })).toEqual(
      refused('CHECK_FAILED', 'send_order'),
    );
  });

  it('refuses a quantity over it, and a country outside the list, naming the check', () => {
    expect(check('send_order', { quantity: 6, country: 'DE' }, { history: [stock(5)] })).toEqual(
      refused('CHECK_FAILED', 'send_order', `send_order's check "quantity at_most from check_stock.in_stock" does not hold for this call.`),
    );
    expect(check('send_order', { quantity: 1, country: 'US' }, { history: [stock(5)] })).toEqual(
      refused('CHECK_FAILED', 'send_order', `send_order's check "country in [DE, FR]" does not hold for this call.`),
    );
  });

  it('refuses a call whose check cannot be read: no check_stock yet, no such field, a missing or odd quantity', () => {
    const unreadable = refused(
      'CHECK_UNREADABLE',
      'send_order',
      `send_order's check "quantity at_most from check_stock.in_stock" cannot be read for this call, so the call is refused.`,
    );
    expect(check('send_order', { quantity: 1, country: 'DE' })).toEqual(unreadable);
    expect(check('send_order', { quantity: 1, country: 'DE' }, { history: [{ tool: 'check_stock', result: { available: 5 } }] })).toEqual(
      unreadable,
    );
    expect(check('send_order', { quantity: 1, country: 'DE' }, { history: [stock('plenty')] })).toEqual(unreadable);
    expect(check('send_order', { country: 'DE' }, { history: [stock(5)] })).toEqual(unreadable);
    expect(check('send_order', { quantity: 'one', country: 'DE' }, { history: [stock(5)] })).toEqual(unreadable);
    expect(check('send_order', { quantity: 1, country: 7 }, { history: [stock(5)] })).toEqual(refused('CHECK_UNREADABLE', 'send_order'));
  });
});

describe('the rest of the sheet and the catalogue', () => {
  it('never runs delete_customer, whatever the host says', () => {
    expect(check('delete_customer', { id: 'c1' }, { contexts: { supervisor_approved: true }, confirmed: true })).toEqual(
      refused('NEVER', 'delete_customer', 'delete_customer never runs: the rulebook refuses it outright.'),
    );
  });

  it('allows a tool the sheet does not govern, and refuses one the catalogue does not hold', () => {
    expect(check('check_stock', { sku: 'A1' })).toEqual(ALLOW);
    expect(checkTool({ rulebook, catalogue, call: { tool: 'wire_money', arguments: {} } })).toEqual({
      verdict: 'refuse',
      code: 'TOOL_UNKNOWN',
      rule: null,
      reason: 'The catalogue holds no tool named wire_money, so the call is refused.',
    });
  });
});
