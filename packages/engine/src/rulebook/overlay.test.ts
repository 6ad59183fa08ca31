// Laying a sheet's overlay over the catalogue: checks appended, order unioned, at_most the smaller, words the sheet's.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from './catalogue.ts';
import { layOverlay } from './overlay.ts';
import { type CatalogueOverlay, type Check, OVERLAY_FORMAT } from './types.ts';

const inStock: Check = { field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'in_stock' } };
const euro: Check = { field: 'country', op: 'in', value: [{ string: 'DE' }, { string: 'FR' }] };

const catalogue: Catalogue = {
  tools: [
    { name: 'check_stock', action: 'stock.check', kind: 'read' },
    {
      name: 'send_order',
      action: 'orders.send',
      kind: 'write',
      confirmation: 'Send the order?',
      after: ['check_stock'],
      not_after: ['close_account'],
      at_most: 5,
      checks: [euro],
    },
    { name: 'close_account', action: 'accounts.close', kind: 'write', at_most: 1 },
  ],
};

function overlay(tools: CatalogueOverlay['tools']): CatalogueOverlay {
  return { format: OVERLAY_FORMAT, tools };
}

describe('layOverlay', () => {
  it('lays every declaration over the catalogue’s', () => {
    const laid = layOverlay(
      catalogue,
      overlay({
        send_order: {
          confirmation: 'Send this order now?',
          after: ['charge_card', 'check_stock'],
          not_after: ['refund_card'],
          at_most: 2,
          checks: [inStock],
        },
        close_account: { at_most: 3 },
      }),
    );
    expect(laid.tools[1]).toEqual({
      name: 'send_order',
      action: 'orders.send',
      kind: 'write',
      confirmation: 'Send this order now?',
      after: ['check_stock', 'charge_card'],
      not_after: ['close_account', 'refund_card'],
      at_most: 2,
      checks: [euro, inStock],
    });
    // The smaller at_most holds, whichever side states it.
    expect(laid.tools[2]?.at_most).toBe(1);
  });

  it('keeps the catalogue’s words where the overlay has none, and adds to a tool that declared nothing', () => {
    const laid = layOverlay(
      catalogue,
      overlay({ send_order: { at_most: 9 }, check_stock: { confirmation: 'Look up stock?', checks: [euro], after: ['x'] } }),
    );
    expect(laid.tools[1]?.confirmation).toBe('Send the order?');
    expect(laid.tools[1]?.at_most).toBe(5);
    expect(laid.tools[1]?.checks).toEqual([euro]);
    expect(laid.tools[0]).toEqual({
      name: 'check_stock',
      action: 'stock.check',
      kind: 'read',
      confirmation: 'Look up stock?',
      checks: [euro],
      after: ['x'],
    });
  });

  it('ignores entries for tools the catalogue does not hold', () => {
    const laid = layOverlay(catalogue, overlay({ refund_card: { at_most: 1, confirmation: 'Refund?' } }));
    expect(laid).toEqual(catalogue);
    expect(laid.tools.map((t) => t.name)).toEqual(['check_stock', 'send_order', 'close_account']);
  });

  it('ignores inherited names such as __proto__ and toString', () => {
    const tools = JSON.parse('{"__proto__": {"at_most": 1}}') as CatalogueOverlay['tools'];
    const withProto: Catalogue = { tools: [{ name: 'toString', action: 'a', kind: 'read' }] };
    expect(layOverlay(withProto, overlay(tools))).toEqual(withProto);
  });

  it('changes neither the catalogue nor the overlay', () => {
    const before = JSON.stringify(catalogue);
    const sheet = overlay({ send_order: { after: ['charge_card'], checks: [inStock] } });
    const sheetBefore = JSON.stringify(sheet);
    const laid = layOverlay(catalogue, sheet);
    expect(JSON.stringify(catalogue)).toBe(before);
    expect(JSON.stringify(sheet)).toBe(sheetBefore);
    expect(laid.tools[1]?.after).not.toBe(catalogue.tools[1]?.after);
    expect(laid).not.toBe(catalogue);
  });
});
