// Unit tests of a binding in words: every part of the binding a person authorizes is named.
import { describe, expect, it } from 'vitest';
import { bindingText } from './binding-text.ts';

describe('bindingText', () => {
  it('names the action, the pointer, the currency and the currency pointer', () => {
    expect(bindingText({ action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } })).toBe(
      'refund.issue, amount at /amount in USD',
    );
    expect(
      bindingText({
        action: 'payments.charge',
        amount: { pointer: '/payment/amount', currency: 'EUR', currency_pointer: '/payment/currency' },
      }),
    ).toBe('payments.charge, amount at /payment/amount in EUR (currency at /payment/currency)');
  });

  it('says when a tool has no amount mapping', () => {
    expect(bindingText({ action: 'orders.read', amount: null })).toBe('orders.read, no amount');
    expect(bindingText({ action: 'orders.read' })).toBe('orders.read, no amount');
  });
});
