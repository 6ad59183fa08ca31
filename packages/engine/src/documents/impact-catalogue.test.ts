// Catalogue impact: write tools added, bindings changed, writes turned read, declarations loosened.
import { describe, expect, it } from 'vitest';
import { analyzeCatalogueImpact } from './impact-catalogue.ts';

const RUNNING = `tools:
  - {name: check_stock, action: stock.check, kind: read}
  - name: charge_card
    action: payments.charge
    kind: write
    amount: {pointer: /payment/amount, currency: EUR, currency_pointer: /payment/currency}
    requires_confirmation: true
  - name: send_order
    action: orders.send
    kind: write
    after: [charge_card]
    at_most: 3
    checks:
      - {field: quantity, at_most: {from: check_stock.in_stock}}
`;

function subjects(after: string, before = RUNNING): string[] {
  const impact = analyzeCatalogueImpact(before, after);
  expect(impact.widensSecurity).toBe(impact.widenedSubjects.length > 0);
  return impact.widenedSubjects;
}

const swap = (from: string, to: string) => {
  if (!RUNNING.includes(from)) throw new Error(`no ${from}`);
  return RUNNING.replace(from, to);
};

describe('catalogue impact: widenings', () => {
  it.each([
    ['a write tool added', `${RUNNING}  - {name: close_account, action: accounts.close, kind: write}\n`, ['tools/close_account added']],
    ['a write turned read', swap('orders.send\n    kind: write', 'orders.send\n    kind: read'), ['tools/send_order kind write -> read']],
    ['an action changed', swap('action: orders.send', 'action: orders.note'), ['tools/send_order action orders.send -> orders.note']],
    [
      'an amount pointer changed',
      swap('pointer: /payment/amount', 'pointer: /payment/net'),
      ['tools/charge_card amount pointer /payment/amount -> /payment/net'],
    ],
    ['an amount currency changed', swap('currency: EUR', 'currency: USD'), ['tools/charge_card amount currency EUR -> USD']],
    [
      'a currency pointer removed',
      swap(', currency_pointer: /payment/currency', ''),
      ['tools/charge_card amount currency_pointer /payment/currency removed'],
    ],
    [
      'an amount mapping removed',
      swap('    amount: {pointer: /payment/amount, currency: EUR, currency_pointer: /payment/currency}\n', ''),
      ['tools/charge_card amount removed'],
    ],
    [
      'an amount mapping added',
      swap(
        '{name: check_stock, action: stock.check, kind: read}',
        '{name: check_stock, action: stock.check, kind: read, amount: {pointer: /n, currency: EUR}}',
      ),
      ['tools/check_stock amount added'],
    ],
    ['a confirmation dropped', swap('    requires_confirmation: true\n', ''), ['tools/charge_card confirmation dropped']],
    ['an order rule dropped', swap('    after: [charge_card]\n', ''), ['tools/send_order after charge_card dropped']],
    ['at_most raised', swap('at_most: 3', 'at_most: 30'), ['tools/send_order at_most 3 -> 30']],
    [
      'a check dropped',
      swap('    checks:\n      - {field: quantity, at_most: {from: check_stock.in_stock}}\n', ''),
      ['tools/send_order check quantity at_most from check_stock.in_stock dropped'],
    ],
  ])('%s', (_name, after, expected) => {
    expect(subjects(after)).toEqual(expected);
  });

  it('flags each write tool of a first catalogue, and none of its reads', () => {
    expect(analyzeCatalogueImpact(undefined, RUNNING)).toEqual({
      widensSecurity: true,
      widenedSubjects: ['tools/charge_card added', 'tools/send_order added'],
    });
  });

  it('reads JSON catalogues too', () => {
    const before = JSON.stringify({ tools: [{ name: 'a', action: 'a.b', kind: 'write', at_most: 1 }] });
    const after = JSON.stringify({ tools: [{ name: 'a', action: 'a.b', kind: 'write', at_most: 2 }] });
    expect(subjects(after, before)).toEqual(['tools/a at_most 1 -> 2']);
  });
});

describe('catalogue impact: narrowings and identity are never flagged', () => {
  it.each([
    ['identical', RUNNING],
    ['a read tool added', `${RUNNING}  - {name: list_orders, action: orders.list, kind: read}\n`],
    ['a tool removed', RUNNING.slice(0, RUNNING.indexOf('  - name: send_order'))],
    ['a read turned write', swap('stock.check, kind: read', 'stock.check, kind: write')],
    ['a description added', swap('    at_most: 3\n', '    at_most: 3\n    description: Sends an order.\n')],
    [
      'at_most lowered, a check added',
      swap('at_most: 3', 'at_most: 1').replace('in_stock}}\n', 'in_stock}}\n      - {field: country, in: [DE]}\n'),
    ],
  ])('%s', (_name, after) => {
    expect(subjects(after)).toEqual([]);
  });

  it('a text that does not load widens nothing', () => {
    expect(subjects('tools: [', RUNNING)).toEqual([]);
    expect(analyzeCatalogueImpact(undefined, 'tools:\n  - {name: x, action: X, kind: write}\n').widensSecurity).toBe(false);
  });
});
