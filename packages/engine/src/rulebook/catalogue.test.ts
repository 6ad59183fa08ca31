// The catalogue format: a valid catalogue in YAML and JSON, and every problem with its YAML line and JSON path.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../source/diagnostic.ts';
import {
  CATALOGUE_CODES,
  type CatalogueResult,
  catalogueFormatOf,
  defaultConfirmation,
  readCatalogue,
  validateCatalogue,
} from './catalogue.ts';

const SHOP_YAML = `# The shop's tools.
tools:
  - name: check_stock
    action: stock.check
    kind: read
  - name: charge_card
    action: payments.charge
    kind: write
    amount: {pointer: /payment/amount, currency: EUR, currency_pointer: /payment/currency}
    requires_confirmation: true
  - name: send_order
    action: orders.send
    kind: write
    description: Sends an order to the warehouse.
    confirmation: "Send this order?"
    after: [charge_card]
    not_after: [close_account]
    at_most: 3
    checks:
      - {field: quantity, at_most: {from: check_stock.in_stock}}
      - {field: shipping.country, in: [DE, FR]}
      - field: total
        over: 10.50
  - {name: close_account, action: accounts.close, kind: write}
`;

const SHOP_JSON = JSON.stringify(
  {
    tools: [
      { name: 'check_stock', action: 'stock.check', kind: 'read' },
      {
        name: 'charge_card',
        action: 'payments.charge',
        kind: 'write',
        amount: { pointer: '/payment/amount', currency: 'EUR', currency_pointer: '/payment/currency' },
        requires_confirmation: true,
      },
      {
        name: 'send_order',
        action: 'orders.send',
        kind: 'write',
        description: 'Sends an order to the warehouse.',
        confirmation: 'Send this order?',
        after: ['charge_card'],
        not_after: ['close_account'],
        at_most: 3,
        checks: [
          { field: 'quantity', at_most: { from: 'check_stock.in_stock' } },
          { field: 'shipping.country', in: ['DE', 'FR'] },
          { field: 'total', over: 10 },
        ],
      },
      { name: 'close_account', action: 'accounts.close', kind: 'write' },
    ],
  },
  null,
  2,
);

describe('readCatalogue: a valid catalogue', () => {
  it('reads every member from YAML', () => {
    const r = readCatalogue(SHOP_YAML, 'yaml');
    expect(r).toEqual({
      ok: true,
      problems: [],
      catalogue: {
        tools: [
          { name: 'check_stock', action: 'stock.check', kind: 'read' },
          {
            name: 'charge_card',
            action: 'payments.charge',
            kind: 'write',
            amount: { pointer: '/payment/amount', currency: 'EUR', currency_pointer: '/payment/currency' },
            confirmation: 'Confirm the call to charge_card?',
          },
          {
            name: 'send_order',
            action: 'orders.send',
            kind: 'write',
            description: 'Sends an order to the warehouse.',
            confirmation: 'Send this order?',
            after: ['charge_card'],
            not_after: ['close_account'],
            at_most: 3,
            checks: [
              { field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'in_stock' } },
              { field: 'shipping.country', op: 'in', value: [{ string: 'DE' }, { string: 'FR' }] },
              { field: 'total', op: 'over', value: { decimal: '10.50' } },
            ],
          },
          { name: 'close_account', action: 'accounts.close', kind: 'write' },
        ],
      },
    });
  });

  it('reads the same catalogue from JSON (integers only: JSON has no exact fraction)', () => {
    const yaml = readCatalogue(SHOP_YAML.replace('over: 10.50', 'over: 10'), 'yaml');
    expect(readCatalogue(SHOP_JSON, 'json')).toEqual(yaml);
    expect(yaml.ok).toBe(true);
  });

  it('accepts an empty tools list, empty order lists and explicit defaults', () => {
    expect(readCatalogue('tools: []', 'yaml')).toEqual({ ok: true, catalogue: { tools: [] }, problems: [] });
    const r = readCatalogue('tools:\n  - {name: a, action: a, kind: read, after: [], checks: [], requires_confirmation: false}\n', 'yaml');
    expect(r).toEqual({ ok: true, catalogue: { tools: [{ name: 'a', action: 'a', kind: 'read' }] }, problems: [] });
  });

  it('lets a check read from the tool itself', () => {
    const r = readCatalogue('tools:\n  - {name: a, action: a, kind: read, checks: [{field: n, at_most: {from: a.n}}]}\n', 'yaml');
    expect(r.ok).toBe(true);
  });

  it('says the default words', () => {
    expect(defaultConfirmation('close_account')).toBe('Confirm the call to close_account?');
  });
});

// Line 1-4 hold a valid tool; each case's YAML is the second tool, from line 5.
const HEAD_YAML = 'tools:\n  - name: check_stock\n    action: stock.check\n    kind: read\n';
const HEAD_TOOL = { name: 'check_stock', action: 'stock.check', kind: 'read' };
const ok = { name: 'send_order', action: 'orders.send', kind: 'write' };

interface ToolCase {
  name: string;
  yaml: string;
  json: unknown;
  code: string;
  path: string;
  line: number;
}

const toolCases: ToolCase[] = [
  { name: 'a tool that is not a mapping', yaml: '  - send_order', json: 'send_order', code: 'INVALID_TYPE', path: '/tools/1', line: 5 },
  {
    name: 'an unknown member',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    colour: red',
    json: { ...ok, colour: 'red' },
    code: 'UNKNOWN_MEMBER',
    path: '/tools/1/colour',
    line: 8,
  },
  {
    name: 'no name',
    yaml: '  - {action: orders.send, kind: write}',
    json: { action: 'orders.send', kind: 'write' },
    code: 'MISSING_MEMBER',
    path: '/tools/1/name',
    line: 5,
  },
  {
    name: 'no action',
    yaml: '  - {name: send_order, kind: write}',
    json: { name: 'send_order', kind: 'write' },
    code: 'MISSING_MEMBER',
    path: '/tools/1/action',
    line: 5,
  },
  {
    name: 'no kind',
    yaml: '  - name: send_order\n    action: orders.send',
    json: { name: 'send_order', action: 'orders.send' },
    code: 'MISSING_MEMBER',
    path: '/tools/1/kind',
    line: 5,
  },
  {
    name: 'a name with a space',
    yaml: '  - action: orders.send\n    name: send order\n    kind: write',
    json: { ...ok, name: 'send order' },
    code: 'INVALID_TOOL_NAME',
    path: '/tools/1/name',
    line: 6,
  },
  {
    name: 'an uppercase action',
    yaml: '  - name: send_order\n    action: Orders.Send\n    kind: write',
    json: { ...ok, action: 'Orders.Send' },
    code: 'INVALID_ACTION',
    path: '/tools/1/action',
    line: 6,
  },
  {
    name: 'a reserved action',
    yaml: '  - name: send_order\n    action: tollgate.send\n    kind: write',
    json: { ...ok, action: 'tollgate.send' },
    code: 'INVALID_ACTION',
    path: '/tools/1/action',
    line: 6,
  },
  {
    name: 'a kind that is neither read nor write',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: delete',
    json: { ...ok, kind: 'delete' },
    code: 'INVALID_VALUE',
    path: '/tools/1/kind',
    line: 7,
  },
  {
    name: 'an amount pointer that is not a pointer',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    amount:\n      currency: USD\n      pointer: amount',
    json: { ...ok, amount: { pointer: 'amount', currency: 'USD' } },
    code: 'INVALID_POINTER',
    path: '/tools/1/amount/pointer',
    line: 10,
  },
  {
    name: 'a lowercase currency',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    amount: {pointer: /amount, currency: usd}',
    json: { ...ok, amount: { pointer: '/amount', currency: 'usd' } },
    code: 'INVALID_CURRENCY',
    path: '/tools/1/amount/currency',
    line: 8,
  },
  {
    name: 'an unknown amount member',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    amount: {pointer: /amount, currency: USD, rate: 2}',
    json: { ...ok, amount: { pointer: '/amount', currency: 'USD', rate: 2 } },
    code: 'UNKNOWN_MEMBER',
    path: '/tools/1/amount/rate',
    line: 8,
  },
  {
    name: 'at_most 0',
    yaml: '  - {name: send_order, action: orders.send, kind: write,\n     at_most: 0}',
    json: { ...ok, at_most: 0 },
    code: 'INVALID_VALUE',
    path: '/tools/1/at_most',
    line: 6,
  },
  {
    name: 'at_most -2',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    at_most: -2',
    json: { ...ok, at_most: -2 },
    code: 'INVALID_VALUE',
    path: '/tools/1/at_most',
    line: 8,
  },
  {
    name: 'at_most as text',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    at_most: "3"',
    json: { ...ok, at_most: '3' },
    code: 'INVALID_VALUE',
    path: '/tools/1/at_most',
    line: 8,
  },
  {
    name: 'an empty description',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    description: ""',
    json: { ...ok, description: '' },
    code: 'INVALID_VALUE',
    path: '/tools/1/description',
    line: 8,
  },
  {
    name: 'blank confirmation words',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    confirmation: "  "',
    json: { ...ok, confirmation: '  ' },
    code: 'INVALID_VALUE',
    path: '/tools/1/confirmation',
    line: 8,
  },
  {
    name: 'confirmation words that are not text',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    confirmation: true',
    json: { ...ok, confirmation: true },
    code: 'INVALID_VALUE',
    path: '/tools/1/confirmation',
    line: 8,
  },
  {
    name: 'requires_confirmation that is not a boolean',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    requires_confirmation: "yes"',
    json: { ...ok, requires_confirmation: 'yes' },
    code: 'INVALID_VALUE',
    path: '/tools/1/requires_confirmation',
    line: 8,
  },
  {
    name: 'requires_confirmation false beside words',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    confirmation: Send it?\n    requires_confirmation: false',
    json: { ...ok, confirmation: 'Send it?', requires_confirmation: false },
    code: 'INVALID_VALUE',
    path: '/tools/1/requires_confirmation',
    line: 9,
  },
  {
    name: 'after that is not a list',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    after: check_stock',
    json: { ...ok, after: 'check_stock' },
    code: 'INVALID_TYPE',
    path: '/tools/1/after',
    line: 8,
  },
  {
    name: 'a malformed name in not_after',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    not_after: [check stock]',
    json: { ...ok, not_after: ['check stock'] },
    code: 'INVALID_TOOL_NAME',
    path: '/tools/1/not_after/0',
    line: 8,
  },
  {
    name: 'a tool named twice in after',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    after:\n      - check_stock\n      - check_stock',
    json: { ...ok, after: ['check_stock', 'check_stock'] },
    code: 'DUPLICATE_VALUE',
    path: '/tools/1/after/1',
    line: 10,
  },
  {
    name: 'after naming a tool the catalogue lacks',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    after: [check_stock, charge_card]',
    json: { ...ok, after: ['check_stock', 'charge_card'] },
    code: 'UNKNOWN_TOOL',
    path: '/tools/1/after/1',
    line: 8,
  },
  {
    name: 'not_after naming a tool the catalogue lacks',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    not_after: [close_account]',
    json: { ...ok, not_after: ['close_account'] },
    code: 'UNKNOWN_TOOL',
    path: '/tools/1/not_after/0',
    line: 8,
  },
  {
    name: 'a check from a tool the catalogue lacks',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    checks:\n      - field: quantity\n        at_most: {from: stock.in_stock}',
    json: { ...ok, checks: [{ field: 'quantity', at_most: { from: 'stock.in_stock' } }] },
    code: 'UNKNOWN_TOOL',
    path: '/tools/1/checks/0/at_most/from',
    line: 10,
  },
  {
    name: 'a tool after itself',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    after: [send_order]',
    json: { ...ok, after: ['send_order'] },
    code: 'CONTRADICTORY_ORDER',
    path: '/tools/1/after/0',
    line: 8,
  },
  {
    name: 'a tool in both after and not_after',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    after: [check_stock]\n    not_after: [check_stock]',
    json: { ...ok, after: ['check_stock'], not_after: ['check_stock'] },
    code: 'CONTRADICTORY_ORDER',
    path: '/tools/1/not_after/0',
    line: 9,
  },
  {
    name: 'a second tool of one name',
    yaml: '  - action: orders.send\n    kind: write\n    name: check_stock',
    json: { ...ok, name: 'check_stock' },
    code: 'DUPLICATE_TOOL',
    path: '/tools/1/name',
    line: 7,
  },
  {
    name: 'checks that is not a list',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    checks: {field: n, over: 1}',
    json: { ...ok, checks: { field: 'n', over: 1 } },
    code: 'CHECK_INVALID',
    path: '/tools/1/checks',
    line: 8,
  },
  {
    name: 'a check with an unknown member',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    checks:\n      - field: n\n        over: 1\n        unless: 2',
    json: { ...ok, checks: [{ field: 'n', over: 1, unless: 2 }] },
    code: 'CHECK_INVALID',
    path: '/tools/1/checks/0/unless',
    line: 11,
  },
  {
    name: 'a check without a comparison',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    checks:\n      - {field: n}',
    json: { ...ok, checks: [{ field: 'n' }] },
    code: 'CHECK_COMPARISON',
    path: '/tools/1/checks/0',
    line: 9,
  },
  {
    name: 'a number compared with text',
    yaml: '  - name: send_order\n    action: orders.send\n    kind: write\n    checks:\n      - {field: n, is: 1}\n      - field: n\n        over: ten',
    json: {
      ...ok,
      checks: [
        { field: 'n', is: 1 },
        { field: 'n', over: 'ten' },
      ],
    },
    code: 'CHECK_OPERAND',
    path: '/tools/1/checks/1/over',
    line: 11,
  },
];

function triples(r: CatalogueResult): [string, string | undefined, number | undefined][] {
  return r.problems.map((p) => [p.code, p.path, p.line]);
}

describe('readCatalogue: each tool problem', () => {
  it.each(toolCases)('$name: $code at $path, YAML line $line', (c) => {
    const yaml = readCatalogue(`${HEAD_YAML}${c.yaml}\n`, 'yaml');
    expect(yaml.ok).toBe(false);
    expect(triples(yaml)).toEqual([[c.code, c.path, c.line]]);
    expect(yaml.problems[0]?.severity).toBe('error');
    expect(yaml.problems[0]?.message.length).toBeGreaterThan(10);
    const json = readCatalogue(JSON.stringify({ tools: [HEAD_TOOL, c.json] }, null, 2), 'json');
    expect(json.problems.map((p) => [p.code, p.path])).toEqual([[c.code, c.path]]);
    expect(json.problems[0]?.line).toBeGreaterThan(1);
  });

  it('uses only registered codes', () => {
    for (const c of toolCases) expect(Object.keys(CATALOGUE_CODES)).toContain(c.code);
  });
});

describe('readCatalogue: the document and its text', () => {
  it.each([
    ['a list', '- a\n', [['INVALID_TYPE', '', 1]]],
    ['an empty document', '# nothing\n', [['INVALID_TYPE', '', 1]]],
    [
      'no tools',
      'tool: []\n',
      [
        ['MISSING_MEMBER', '', 1],
        ['UNKNOWN_MEMBER', '/tool', 1],
      ],
    ],
    ['tools that is not a list', 'tools: {a: 1}\n', [['INVALID_TYPE', '/tools', 1]]],
    ['an unknown top member', 'version: 2\ntools: []\n', [['UNKNOWN_MEMBER', '/version', 1]]],
    ['a syntax error', 'tools:\n  - name: [a\n', [['NOT_YAML', '', 3]]],
    ['a tab', 'tools:\n\t- name: a\n', [['NOT_YAML', '', 2]]],
    ['a second document', 'tools: []\n---\ntools: []\n', [['NOT_YAML', '', 2]]],
    ['a key twice', 'tools: []\ntools: []\n', [['NOT_YAML', '', 2]]],
    [
      'an alias',
      'tools:\n  - &t {name: a, action: a, kind: read}\n  - *t\n',
      [
        ['UNSUPPORTED_YAML', '/tools/1', 3],
        ['INVALID_TYPE', '/tools/1', 3],
      ],
    ],
    [
      'an inexact number',
      'tools:\n  - {name: a, action: a, kind: read,\n     at_most: 1e3}\n',
      [
        ['INEXACT_NUMBER', '/tools/0/at_most', 3],
        ['INVALID_VALUE', '/tools/0/at_most', 3],
      ],
    ],
  ] as const)('YAML: %s', (_name, text, expected) => {
    const r = readCatalogue(text, 'yaml');
    expect(r.ok).toBe(false);
    expect(triples(r)).toEqual(expected);
  });

  it.each([
    ['not JSON', '{"tools": [}', [['NOT_JSON', '', 1]]],
    ['a member twice', '{\n  "tools": [],\n  "tools": []\n}', [['DUPLICATE_MEMBER', '/tools', 3]]],
    [
      'a fraction',
      '{"tools": [{"name": "a", "action": "a", "kind": "read",\n "checks": [{"field": "n", "over": 10.5}]}]}',
      [
        ['INEXACT_NUMBER', '/tools/0/checks/0/over', 2],
        ['CHECK_OPERAND', '/tools/0/checks/0/over', 2],
      ],
    ],
    ['too deep', `{"tools": ${'['.repeat(70)}${']'.repeat(70)}}`, [['TOO_DEEP', '', 1]]],
    ['an unknown member', '{"tools": [],\n "format": 1}', [['UNKNOWN_MEMBER', '/format', 2]]],
  ] as const)('JSON: %s', (_name, text, expected) => {
    const r = readCatalogue(text, 'json');
    expect(r.ok).toBe(false);
    expect(triples(r)).toEqual(expected);
  });

  it('refuses a text over 4 MiB unread', () => {
    const r = readCatalogue(' '.repeat(4 * 1024 * 1024 + 1), 'json');
    expect(r.problems.map((p) => [p.code, p.path])).toEqual([['TOO_LARGE', '']]);
  });

  it('lists every problem of a catalogue in line order, each with a path and a line', () => {
    const text = `tools:
  - name: refund_card
    action: refund.issue
    kind: write
    amount: {pointer: /amount, currency: usd}
    checks:
      - {field: amount, over: ten}
  - name: refund_card
    action: Refund
    kind: delete
    at_most: 0
    after: [ship, refund_card]
    colour: red
  - action: a.b
    checks:
      - field: quantity
        at_most: {from: stock.left}
`;
    expect(triples(readCatalogue(text, 'yaml'))).toEqual([
      ['INVALID_CURRENCY', '/tools/0/amount/currency', 5],
      ['CHECK_OPERAND', '/tools/0/checks/0/over', 7],
      ['DUPLICATE_TOOL', '/tools/1/name', 8],
      ['INVALID_ACTION', '/tools/1/action', 9],
      ['INVALID_VALUE', '/tools/1/kind', 10],
      ['INVALID_VALUE', '/tools/1/at_most', 11],
      ['UNKNOWN_TOOL', '/tools/1/after/0', 12],
      ['CONTRADICTORY_ORDER', '/tools/1/after/1', 12],
      ['UNKNOWN_MEMBER', '/tools/1/colour', 13],
      ['MISSING_MEMBER', '/tools/2/name', 14],
      ['MISSING_MEMBER', '/tools/2/kind', 14],
      ['UNKNOWN_TOOL', '/tools/2/checks/0/at_most/from', 17],
    ]);
  });
});

describe('validateCatalogue', () => {
  it('validates plain values with paths only', () => {
    const problems: Diagnostic[] = [];
    expect(validateCatalogue({ tools: [{ name: 'a', action: 'a', kind: 'read' }] }, problems)).toEqual({
      tools: [{ name: 'a', action: 'a', kind: 'read' }],
    });
    expect(validateCatalogue({ tools: [{ name: 'a', action: 'a', kind: 'x' }] }, problems)).toBeUndefined();
    expect(problems).toEqual([{ code: 'INVALID_VALUE', severity: 'error', path: '/tools/0/kind', message: 'kind is read or write' }]);
  });
});

describe('catalogueFormatOf', () => {
  it.each([
    ['catalogue.yaml', 'yaml'],
    ['catalogues/shop.YML', 'yaml'],
    ['tools.json', 'json'],
    ['rules.co', undefined],
    ['yaml', undefined],
  ])('%s is %s', (file, format) => {
    expect(catalogueFormatOf(file)).toBe(format);
  });
});
