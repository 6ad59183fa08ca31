// The tool check on each construct: the when bound, required contexts, computed contexts the host cannot
// set, never, confirmation, order rules, at_most over a session, checks against earlier results.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Catalogue, type CatalogueTool, readCatalogue } from './catalogue.ts';
import type { SessionCall } from './check.ts';
import { layOverlay } from './overlay.ts';
import { checkTool, describeCheck, TOOL_CHECK_CODES, type ToolCheckInput, type ToolVerdict, toolReadsHistory } from './tool-check.ts';
import { OVERLAY_FORMAT, RULEBOOK_FORMAT, type Rulebook } from './types.ts';

const CATALOGUE_YAML = `tools:
  - {name: refund_card, action: refund.issue, kind: write, amount: {pointer: /amount, currency: EUR}}
  - {name: charge_card, action: payments.charge, kind: write}
  - {name: send_receipt, action: receipts.send, kind: write}
  - {name: check_stock, action: stock.check, kind: read}
  - {name: send_order, action: orders.send, kind: write, not_after: [close_account], at_most: 10}
  - {name: close_account, action: accounts.close, kind: write, confirmation: "Close this account for good?"}
  - {name: delete_customer, action: customers.delete, kind: write}
  - {name: export_data, action: customers.export, kind: write}
  - {name: lookup_order, action: orders.read, kind: read, checks: [{field: order_id, is_not: ""}]}
`;

// What the reference example sheet (docs/rule-sheets.md) (and the lines added to it here) compiles to.
const rulebook: Rulebook = {
  format: RULEBOOK_FORMAT,
  flows: [
    { action: 'delete_customer', refuse: true },
    { action: 'export_data', allow_when: { all: [{ context: 'gdpr_ok' }, { context: 'manager_ok' }] } },
    {
      action: 'refund_card',
      allow_when: { any: [{ not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }, { context: 'supervisor_approved' }] },
    },
  ],
};

function shop(): Catalogue {
  const read = readCatalogue(CATALOGUE_YAML, 'yaml');
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return layOverlay(read.catalogue, {
    format: OVERLAY_FORMAT,
    tools: {
      charge_card: { confirmation: 'Confirm the call to charge_card?' },
      send_receipt: { after: ['charge_card'], at_most: 1 },
      send_order: { at_most: 3, checks: [{ field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'in_stock' } }] },
    },
  });
}

const catalogue = shop();

function check(tool: string, args: unknown, more: Partial<ToolCheckInput> = {}): ToolVerdict {
  return checkTool({ rulebook, catalogue, call: { tool, arguments: args }, ...more });
}

function refusal(code: string, rule: string | null = null): Record<string, unknown> {
  return { verdict: 'refuse', code, rule, reason: expect.any(String) };
}

describe('checkTool: the rulebook', () => {
  it('refuses a tool the catalogue does not hold, naming no rule', () => {
    expect(check('wire_money', { amount: 5 })).toEqual(refusal('TOOL_UNKNOWN'));
  });

  it('refuses a never tool whatever the contexts and the confirmation', () => {
    const v = check('delete_customer', { id: 1 }, { contexts: { supervisor_approved: true }, confirmed: true });
    expect(v).toEqual(refusal('NEVER', 'delete_customer'));
  });

  it.each([
    [0, 'allow'],
    [150, 'allow'],
    [200, 'allow'],
    ['200.00', 'allow'],
    ['200.01', 'refuse'],
    [201, 'refuse'],
    [5000, 'refuse'],
  ])('decides a refund of %j without the approval: %s', (amount, verdict) => {
    expect(check('refund_card', { amount }).verdict).toBe(verdict);
  });

  it('allows a refund over the bound with the required context, and only with a boolean true', () => {
    expect(check('refund_card', { amount: 500 }, { contexts: { supervisor_approved: true } })).toEqual({ verdict: 'allow' });
    expect(check('refund_card', { amount: 500 }, { contexts: { supervisor_approved: false } })).toEqual(
      refusal('REQUIREMENT_UNMET', 'refund_card'),
    );
    expect(check('refund_card', { amount: 500 }, { contexts: { supervisor_approved: 'true' } }).verdict).toBe('refuse');
  });

  it('names the unmet context, never the amount', () => {
    const v = check('refund_card', { amount: 987654 });
    expect(v).toEqual(refusal('REQUIREMENT_UNMET', 'refund_card'));
    if (v.verdict !== 'refuse') throw new Error('expected a refusal');
    expect(v.reason).toBe('refund_card needs supervisor_approved, which this call does not have.');
    expect(v.reason).not.toContain('987654');
  });

  it('names every unmet context of a guard', () => {
    const v = check('export_data', {}, { contexts: { manager_ok: false } });
    expect(v).toMatchObject({
      code: 'REQUIREMENT_UNMET',
      reason: 'export_data needs gdpr_ok and manager_ok, which this call does not have.',
    });
    expect(check('export_data', {}, { contexts: { manager_ok: true, gdpr_ok: true } })).toEqual({ verdict: 'allow' });
  });

  it('never lets the host set a computed context', () => {
    for (const contexts of [{ amount_over_200: false }, { amount_over_200: true }, { amount_over_200: 'false', amount: 10 }]) {
      expect(check('refund_card', { amount: 500 }, { contexts })).toEqual(refusal('REQUIREMENT_UNMET', 'refund_card'));
      expect(check('refund_card', { amount: 50 }, { contexts })).toEqual({ verdict: 'allow' });
    }
  });

  it.each([
    ['missing', {}],
    ['null arguments', null],
    ['text', { amount: 'a lot' }],
    ['a float', { amount: 150.5 }],
    ['an exponent', { amount: '1e2' }],
    ['a list', { amount: [100] }],
  ])('applies the requirement when the amount is %s (fail closed)', (_name, args) => {
    expect(check('refund_card', args)).toEqual(refusal('REQUIREMENT_UNMET', 'refund_card'));
    expect(check('refund_card', args, { contexts: { supervisor_approved: true } })).toEqual({ verdict: 'allow' });
  });

  it('leaves a tool without a flow to its declarations', () => {
    expect(check('lookup_order', { order_id: 'A-1' })).toEqual({ verdict: 'allow' });
    expect(check('lookup_order', { order_id: '' })).toEqual(refusal('CHECK_FAILED', 'lookup_order'));
    expect(check('check_stock', { sku: 'a' })).toEqual({ verdict: 'allow' });
  });
});

describe('checkTool: confirmation', () => {
  it('asks the declared words until a person confirms', () => {
    expect(check('charge_card', { amount: 10 })).toEqual({
      verdict: 'confirm',
      rule: 'charge_card',
      confirmation: 'Confirm the call to charge_card?',
    });
    expect(check('charge_card', { amount: 10 }, { confirmed: false }).verdict).toBe('confirm');
    expect(check('charge_card', { amount: 10 }, { confirmed: true })).toEqual({ verdict: 'allow' });
    expect(check('close_account', {})).toEqual({ verdict: 'confirm', rule: 'close_account', confirmation: 'Close this account for good?' });
    expect(check('close_account', {}, { confirmed: true })).toEqual({ verdict: 'allow' });
  });

  it('asks only after the rulebook and every declaration allow the call', () => {
    expect(check('delete_customer', {}).verdict).toBe('refuse');
    const overlaid = layOverlay(catalogue, {
      format: OVERLAY_FORMAT,
      tools: { close_account: { after: ['lookup_order'] } },
    });
    expect(checkTool({ rulebook, catalogue: overlaid, call: { tool: 'close_account', arguments: {} } })).toEqual(
      refusal('ORDER_AFTER', 'close_account'),
    );
  });
});

describe('checkTool: order rules and at_most', () => {
  const charged: SessionCall = { tool: 'charge_card', arguments: { amount: 10 }, result: { ok: true } };

  it('runs send_receipt only after charge_card', () => {
    const v = check('send_receipt', {}, { history: [] });
    expect(v).toEqual(refusal('ORDER_AFTER', 'send_receipt'));
    expect(v.verdict === 'refuse' && v.reason).toBe(
      'send_receipt runs only after charge_card, and charge_card has not run in this session.',
    );
    expect(check('send_receipt', {}, { history: [{ tool: 'check_stock' }] }).verdict).toBe('refuse');
    expect(check('send_receipt', {}, { history: [charged] })).toEqual({ verdict: 'allow' });
  });

  it('never runs send_order after close_account', () => {
    const stock: SessionCall = { tool: 'check_stock', result: { in_stock: 5 } };
    expect(check('send_order', { quantity: 1 }, { history: [stock] })).toEqual({ verdict: 'allow' });
    const v = check('send_order', { quantity: 1 }, { history: [{ tool: 'close_account' }, stock] });
    expect(v).toEqual(refusal('ORDER_NOT_AFTER', 'send_order'));
    expect(v.verdict === 'refuse' && v.reason).toBe('send_order never runs after close_account, which ran earlier in this session.');
  });

  it('counts a tool’s calls over a session: the overlay’s at_most 3 is the smaller', () => {
    const history: SessionCall[] = [{ tool: 'check_stock', result: { in_stock: 100 } }];
    const verdicts: string[] = [];
    for (let i = 0; i < 5; i++) {
      const v = check('send_order', { quantity: 1 }, { history });
      verdicts.push(v.verdict === 'refuse' ? v.code : v.verdict);
      if (v.verdict === 'allow') history.push({ tool: 'send_order', arguments: { quantity: 1 }, result: { ok: true } });
    }
    expect(verdicts).toEqual(['allow', 'allow', 'allow', 'AT_MOST_EXCEEDED', 'AT_MOST_EXCEEDED']);
    const last = check('send_order', { quantity: 1 }, { history });
    expect(last.verdict === 'refuse' && last.reason).toBe('send_order runs at most 3 times in a session, and it has run 3 times.');
  });

  it('allows send_receipt once in a session', () => {
    expect(check('send_receipt', {}, { history: [charged, { tool: 'send_receipt' }] })).toEqual(
      refusal('AT_MOST_EXCEEDED', 'send_receipt'),
    );
  });
});

describe('checkTool: checks', () => {
  const stock = (in_stock: unknown): SessionCall => ({ tool: 'check_stock', arguments: { sku: 'a' }, result: { in_stock } });

  it('holds quantity to what check_stock returned', () => {
    expect(check('send_order', { quantity: 5 }, { history: [stock(5)] })).toEqual({ verdict: 'allow' });
    const v = check('send_order', { quantity: 6 }, { history: [stock(5)] });
    expect(v).toEqual(refusal('CHECK_FAILED', 'send_order'));
    expect(v.verdict === 'refuse' && v.reason).toBe(
      'send_order\'s check "quantity at_most from check_stock.in_stock" does not hold for this call.',
    );
  });

  it('reads the most recent check_stock call', () => {
    expect(check('send_order', { quantity: 3 }, { history: [stock(10), stock(2)] })).toEqual(refusal('CHECK_FAILED', 'send_order'));
    expect(check('send_order', { quantity: 3 }, { history: [stock(2), stock(10)] })).toEqual({ verdict: 'allow' });
  });

  it.each([
    ['no check_stock call', { quantity: 1 }, []],
    ['a check_stock call without a result', { quantity: 1 }, [{ tool: 'check_stock' }]],
    ['a result without in_stock', { quantity: 1 }, [{ tool: 'check_stock', result: { left: 4 } }]],
    ['in_stock that is not a number', { quantity: 1 }, [stock('plenty')]],
    ['no quantity', {}, [stock(5)]],
    ['a quantity that is text', { quantity: 'three-thousand-and-one' }, [stock(5)]],
    ['a fractional JSON quantity', { quantity: 1.5 }, [stock(5)]],
  ] as const)('refuses a check it cannot read: %s', (_name, args, history) => {
    const v = check('send_order', args, { history });
    expect(v).toEqual(refusal('CHECK_UNREADABLE', 'send_order'));
    expect(v.verdict === 'refuse' && v.reason).toBe(
      'send_order\'s check "quantity at_most from check_stock.in_stock" cannot be read for this call, so the call is refused.',
    );
  });

  it('describes checks in the words written, never a call value', () => {
    expect(describeCheck({ field: 'country', op: 'in', value: [{ string: 'DE' }, { string: 'FR' }] })).toBe('country in [DE, FR]');
    expect(describeCheck({ field: 'total', op: 'over', value: { decimal: '10.50' } })).toBe('total over 10.50');
    expect(describeCheck({ field: 'gift', op: 'is', value: { boolean: false } })).toBe('gift is false');
  });
});

describe('checkTool: the order of decisions and the reasons', () => {
  it('decides the rulebook before the declarations', () => {
    const overlaid = layOverlay(catalogue, {
      format: OVERLAY_FORMAT,
      tools: { refund_card: { after: ['charge_card'], confirmation: 'Refund?' } },
    });
    const input = { rulebook, catalogue: overlaid };
    expect(checkTool({ ...input, call: { tool: 'refund_card', arguments: { amount: 500 } } })).toEqual(
      refusal('REQUIREMENT_UNMET', 'refund_card'),
    );
    expect(checkTool({ ...input, call: { tool: 'refund_card', arguments: { amount: 5 } } })).toEqual(refusal('ORDER_AFTER', 'refund_card'));
    expect(checkTool({ ...input, call: { tool: 'refund_card', arguments: { amount: 5 } }, history: [{ tool: 'charge_card' }] })).toEqual({
      verdict: 'confirm',
      rule: 'refund_card',
      confirmation: 'Refund?',
    });
  });

  it('decides after, not_after, at_most and checks in that order', () => {
    const overlaid = layOverlay(catalogue, { format: OVERLAY_FORMAT, tools: { send_order: { after: ['charge_card'], at_most: 1 } } });
    const call = { tool: 'send_order', arguments: { quantity: 99 } };
    const run = (history: SessionCall[]) => {
      const v = checkTool({ rulebook, catalogue: overlaid, call, history });
      return v.verdict === 'refuse' ? v.code : v.verdict;
    };
    const all: SessionCall[] = [{ tool: 'close_account' }, { tool: 'send_order' }, { tool: 'check_stock', result: { in_stock: 1 } }];
    expect(run(all)).toBe('ORDER_AFTER');
    expect(run([{ tool: 'charge_card' }, ...all])).toBe('ORDER_NOT_AFTER');
    expect(run([{ tool: 'charge_card' }, ...all.slice(1)])).toBe('AT_MOST_EXCEEDED');
    expect(run([{ tool: 'charge_card' }, ...all.slice(2)])).toBe('CHECK_FAILED');
  });

  it('registers every code it gives', () => {
    expect(Object.keys(TOOL_CHECK_CODES).sort()).toEqual(
      [
        'AT_MOST_EXCEEDED',
        'CHECK_FAILED',
        'CHECK_UNREADABLE',
        'NEVER',
        'ORDER_AFTER',
        'ORDER_NOT_AFTER',
        'REQUIREMENT_UNMET',
        'TOOL_UNKNOWN',
      ].sort(),
    );
  });

  it('never puts an argument value in a reason, for any call', () => {
    const marker = 'zq-marker-7781';
    const tools = catalogue.tools.map((t) => t.name);
    fc.assert(
      fc.property(
        fc.constantFrom(...tools),
        fc.oneof(fc.constant(marker), fc.integer(), fc.constant(`${marker}.5`)),
        fc.oneof(fc.constant(marker), fc.nat(20)),
        fc.array(fc.constantFrom(...tools), { maxLength: 6 }),
        fc.boolean(),
        (tool, amount, quantity, earlier, confirmed) => {
          const history = earlier.map((t) => ({ tool: t, arguments: { note: marker }, result: { in_stock: marker } }));
          const v = check(tool, { amount, quantity, order_id: marker }, { history, confirmed, contexts: { [marker]: true } });
          if (v.verdict === 'refuse') {
            expect(v.reason).not.toContain(marker);
            expect(Object.keys(TOOL_CHECK_CODES)).toContain(v.code);
            expect(v.rule).toBe(tool);
          }
        },
      ),
    );
  });
});

describe('toolReadsHistory', () => {
  const tool: CatalogueTool = { name: 'send_order', action: 'orders.send', kind: 'write' };
  it('says a tool reads the session only where its order, count or an earlier call decides', () => {
    expect(toolReadsHistory(tool)).toBe(false);
    expect(toolReadsHistory({ ...tool, checks: [{ field: 'quantity', op: 'at_most', value: { decimal: '10' } }] })).toBe(false);
    expect(toolReadsHistory({ ...tool, confirmation: 'a person looks first' })).toBe(false);
    for (const declared of [
      { after: ['check_stock'] },
      { not_after: ['export_customers'] },
      { at_most: 1 },
      { checks: [{ field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'available' } }] },
    ]) {
      expect(toolReadsHistory({ ...tool, ...declared } as CatalogueTool), JSON.stringify(declared)).toBe(true);
    }
  });

  it('decides alike with the history left out wherever it says the tool does not read it', () => {
    const earlier = fc.array(
      fc.record({ tool: fc.constantFrom('check_stock', 'send_order', 'export_customers'), arguments: fc.constant({}) }),
      {
        maxLength: 4,
      },
    );
    const declarations = fc.record(
      {
        after: fc.constantFrom(['check_stock'], ['export_customers']),
        not_after: fc.constant(['export_customers']),
        at_most: fc.integer({ min: 1, max: 3 }),
        checks: fc.constantFrom(
          [{ field: 'quantity', op: 'at_most', value: { decimal: '10' } }],
          [{ field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'available' } }],
        ),
        confirmation: fc.constant('a person looks first'),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(declarations, earlier, fc.integer({ min: 0, max: 12 }), (declared, history, quantity) => {
        const entry = { ...tool, ...declared } as CatalogueTool;
        const input: ToolCheckInput = {
          rulebook: { format: RULEBOOK_FORMAT, flows: [] },
          catalogue: { tools: [entry] },
          call: { tool: 'send_order', arguments: { quantity } },
          history: history.map((c) => (c.tool === 'check_stock' ? { ...c, result: { available: 5 } } : c)),
        };
        if (!toolReadsHistory(entry)) expect(checkTool({ ...input, history: [] })).toEqual(checkTool(input));
      }),
      { numRuns: 300 },
    );
  });
});
