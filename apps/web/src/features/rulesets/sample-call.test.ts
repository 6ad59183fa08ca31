// Unit tests of the starting call a picked tool fills in.
import { describe, expect, it } from 'vitest';
import { parseCall } from './parse-call.ts';
import { pointerSegments, sampleCallText } from './sample-call.ts';

describe('sampleCallText', () => {
  it('puts the amount where the catalogue maps it, as a decimal string', () => {
    const text = sampleCallText({
      name: 'issue_refund',
      action: 'refund.issue',
      kind: 'write',
      amount: { pointer: '/amount', currency: 'USD' },
    });
    expect(parseCall(text)).toEqual({ ok: true, call: { tool: 'issue_refund', arguments: { amount: '50' } } });
  });
  it('builds nested arguments and the currency for a nested pointer', () => {
    const text = sampleCallText(
      {
        name: 'pay',
        action: 'payouts.send',
        kind: 'write',
        amount: { pointer: '/payment/value', currency: 'EUR', currency_pointer: '/payment/currency' },
      },
      '7.5',
    );
    expect(JSON.parse(text)).toEqual({ tool: 'pay', arguments: { payment: { value: '7.5', currency: 'EUR' } } });
  });
  it('gives empty arguments for a tool without an amount', () => {
    expect(JSON.parse(sampleCallText({ name: 'read_order', action: 'orders.read', kind: 'read' }))).toEqual({
      tool: 'read_order',
      arguments: {},
    });
  });
});

describe('pointerSegments', () => {
  it('unescapes ~1 and ~0', () => {
    expect(pointerSegments('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(pointerSegments('')).toEqual([]);
  });
});
