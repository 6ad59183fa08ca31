// Declarations a sheet rule or a catalogue tool makes: which changes loosen them, said exactly.
import { describe, expect, it } from 'vitest';
import type { Check, ToolDeclarations } from '../rulebook/types.ts';
import { declarationSubjects } from './impact-declarations.ts';

const quantity: Check = { field: 'quantity', op: 'at_most', value: { decimal: '10' } };
const country: Check = { field: 'country', op: 'in', value: [{ string: 'DE' }, { string: 'FR' }] };
const blocked: Check = { field: 'country', op: 'not_in', value: [{ string: 'RU' }, { string: 'KP' }] };
const stock: Check = { field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'in_stock' } };
const total: Check = { field: 'total', op: 'over', value: { decimal: '10.50' } };
const FULL: ToolDeclarations = {
  confirmation: 'Send this order?',
  after: ['charge_card'],
  not_after: ['close_account'],
  at_most: 1,
  checks: [quantity, country, blocked, total],
};

describe('declarationSubjects', () => {
  it.each<[string, ToolDeclarations, string[]]>([
    ['a confirmation dropped', { ...FULL, confirmation: undefined }, ['confirmation dropped']],
    [
      'an order rule dropped',
      { ...FULL, after: [], not_after: undefined },
      ['after charge_card dropped', 'not_after close_account dropped'],
    ],
    ['at_most raised', { ...FULL, at_most: 3 }, ['at_most 1 -> 3']],
    ['at_most dropped', { ...FULL, at_most: undefined }, ['at_most dropped']],
    ['a check dropped', { ...FULL, checks: [country, blocked, total] }, ['check quantity at_most 10 dropped']],
    [
      'a numeric check loosened',
      { ...FULL, checks: [{ ...quantity, value: { decimal: '20' } }, country, blocked, { ...total, value: { decimal: '5' } }] },
      ['check quantity at_most 10 -> 20', 'check total over 10.50 -> 5'],
    ],
    [
      'an in list grown',
      { ...FULL, checks: [quantity, { ...country, value: [{ string: 'DE' }, { string: 'FR' }, { string: 'US' }] }, blocked, total] },
      ['check country in + "US"'],
    ],
    [
      'a not_in list shrunk',
      { ...FULL, checks: [quantity, country, { ...blocked, value: [{ string: 'KP' }] }, total] },
      ['check country not_in - "RU"'],
    ],
    [
      'a check moved to what a tool returned',
      { ...FULL, checks: [stock, country, blocked, total] },
      ['check quantity at_most 10 -> quantity at_most from check_stock.in_stock'],
    ],
    [
      'all checks dropped',
      { ...FULL, checks: undefined },
      [
        'check quantity at_most 10 dropped',
        'check country in [DE, FR] dropped',
        'check country not_in [RU, KP] dropped',
        'check total over 10.50 dropped',
      ],
    ],
  ])('%s', (_name, after, subjects) => {
    expect(declarationSubjects(FULL, after)).toEqual(subjects);
  });

  it.each<[string, ToolDeclarations]>([
    ['identical', FULL],
    ['other confirmation words', { ...FULL, confirmation: 'Really send it?' }],
    ['an order rule added', { ...FULL, after: ['charge_card', 'check_stock'] }],
    ['at_most lowered', { ...FULL, at_most: 1 }],
    [
      'a check tightened',
      {
        ...FULL,
        checks: [
          { ...quantity, value: { decimal: '5' } },
          { ...country, value: [{ string: 'DE' }] },
          { ...blocked, value: [{ string: 'RU' }, { string: 'KP' }, { string: 'IR' }] },
          { ...total, value: { decimal: '10.5' } },
        ],
      },
    ],
    ['a check added, checks reordered', { ...FULL, checks: [total, blocked, country, quantity, stock] }],
  ])('no widening: %s', (_name, after) => {
    expect(declarationSubjects(FULL, after)).toEqual([]);
  });

  it('adds nothing where nothing was declared', () => {
    expect(declarationSubjects({}, FULL)).toEqual([]);
    expect(declarationSubjects({}, {})).toEqual([]);
  });
});
