// tollgate rules check: the tool check on one CALL.json over a sheet or Colang, with and without a catalogue.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-harness.ts';
import {
  escapeRegExp,
  GOVERNED_SHEET,
  removeWorkspaces,
  SHOP_CATALOGUE,
  SHOP_SHEET,
  tempFolder,
  UNSUPPORTED_SHEET,
  unsupportedLine,
} from './rules-fixtures.ts';

afterEach(removeWorkspaces);

interface Check {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown> | undefined;
}

/** Runs `rules check` over GOVERNED_SHEET (or `sheet`) with the shop catalogue unless told otherwise. */
async function check(
  call: unknown,
  options: { sheet?: string; sheetName?: string; catalogue?: boolean; json?: boolean } = {},
): Promise<Check> {
  const w = tempFolder();
  const argv = [
    'rules',
    'check',
    w.file(options.sheetName ?? 'rules.yaml', options.sheet ?? GOVERNED_SHEET),
    '--call',
    w.file('call.json', typeof call === 'string' ? call : JSON.stringify(call)),
  ];
  if (options.catalogue !== false) argv.push('--catalogue', w.file('catalogue.yaml', SHOP_CATALOGUE));
  if (options.json !== false) argv.push('--json');
  const run = await runCli(...argv);
  return { ...run, json: run.code === 0 && options.json !== false ? JSON.parse(run.stdout) : undefined };
}

const NEEDS_SUPERVISOR = {
  verdict: 'refuse',
  rule: 'refund_card',
  reason: 'refund_card needs supervisor_approved, which this call does not have.',
  code: 'REQUIREMENT_UNMET',
};

describe('tollgate rules check', () => {
  describe('JSON numbers, compared as written', () => {
    it.each([
      ['200.0000000000000001', 'refuse'],
      ['200.0', 'allow'],
      ['2E2', 'allow'],
    ])('an amount of %s under when: {amount_over: 200}: %s', async (amount, verdict) => {
      const run = await check(`{"tool": "refund_card", "arguments": {"amount": ${amount}}}`);
      expect(run.code).toBe(0);
      expect(run.json?.verdict).toBe(verdict);
    });

    it('does not let quantity 3 pass at_most an in_stock of 2.9999999999999999', async () => {
      const history = (stock: string) =>
        `{"tool": "charge_card", "arguments": {"quantity": 3}, "confirmed": true, "history": [{"tool": "check_stock", "result": {"in_stock": ${stock}}}]}`;
      expect((await check(history('2.9999999999999999'))).json?.verdict).toBe('refuse');
      expect((await check(history('3'))).json?.verdict).toBe('allow');
    });
  });

  describe('when and requires', () => {
    it('allows a refund under the when bound without the required context', async () => {
      const run = await check({ tool: 'refund_card', arguments: { amount: 100 } });
      expect(run.code).toBe(0);
      expect(run.json).toEqual({ verdict: 'allow', rule: null, reason: null });
    });

    it('allows a refund of exactly the bound: amount_over is strict', async () => {
      expect((await check({ tool: 'refund_card', arguments: { amount: '200' } })).json?.verdict).toBe('allow');
      expect((await check({ tool: 'refund_card', arguments: { amount: '200.01' } })).json).toEqual(NEEDS_SUPERVISOR);
    });

    it('refuses a refund over the bound without the context, with rule, reason and code; exit 0 all the same', async () => {
      const run = await check({ tool: 'refund_card', arguments: { amount: 500 } });
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.json).toEqual(NEEDS_SUPERVISOR);
    });

    it('allows a refund over the bound where the host set the required context true', async () => {
      const run = await check({ tool: 'refund_card', arguments: { amount: 500 }, contexts: { supervisor_approved: true } });
      expect(run.json).toEqual({ verdict: 'allow', rule: null, reason: null });
    });

    it('counts a context set to anything but true as not set', async () => {
      for (const value of [false, 'true', 1, null]) {
        const run = await check({ tool: 'refund_card', arguments: { amount: 500 }, contexts: { supervisor_approved: value } });
        expect(run.json, JSON.stringify(value)).toEqual(NEEDS_SUPERVISOR);
      }
    });

    it('ignores a host setting the computed context name: when_refund_card false changes nothing', async () => {
      const without = await check({ tool: 'refund_card', arguments: { amount: 500 } });
      const withIt = await check({ tool: 'refund_card', arguments: { amount: 500 }, contexts: { when_refund_card: false } });
      expect(withIt.json).toEqual(NEEDS_SUPERVISOR);
      expect(withIt.stdout).toBe(without.stdout);
      // Nor does setting it true make a small refund need the supervisor.
      const small = await check({ tool: 'refund_card', arguments: { amount: 100 }, contexts: { when_refund_card: true } });
      expect(small.json?.verdict).toBe('allow');
    });

    it('ignores a host setting the name of a hand-written Colang computed context too', async () => {
      const colang =
        'define context big_refund on refund_card\n  amount > 200\n\ndefine flow refund_card\n  allow when not $big_refund or $supervisor_approved\n';
      const run = await check(
        { tool: 'refund_card', arguments: { amount: 500 }, contexts: { big_refund: false } },
        { sheet: colang, sheetName: 'shop.co' },
      );
      expect(run.json).toEqual(NEEDS_SUPERVISOR);
    });

    it('applies the requirement when the amount is missing or cannot be read (fail closed)', async () => {
      for (const args of [{}, { amount: 'lots' }, { amount: 250.5 }, { amount: true }, { amount: [300] }]) {
        const run = await check({ tool: 'refund_card', arguments: args });
        expect(run.json, JSON.stringify(args)).toEqual(NEEDS_SUPERVISOR);
      }
      const noArguments = await check({ tool: 'refund_card' });
      expect(noArguments.json).toEqual(NEEDS_SUPERVISOR);
      const approved = await check({ tool: 'refund_card', arguments: {}, contexts: { supervisor_approved: true } });
      expect(approved.json?.verdict).toBe('allow');
    });
  });

  describe('confirmation', () => {
    const stocked = [{ tool: 'check_stock', arguments: { sku: 'A1' }, result: { in_stock: 5 } }];

    it('asks the declared words until a person confirms, then allows', async () => {
      const asked = await check({ tool: 'charge_card', arguments: { quantity: 2 }, history: stocked });
      expect(asked.json).toEqual({
        verdict: 'confirm',
        rule: 'charge_card',
        reason: 'a person confirms each call',
        confirmation: 'Confirm the call to charge_card?',
      });
      const given = await check({ tool: 'charge_card', arguments: { quantity: 2 }, history: stocked, confirmed: true });
      expect(given.json).toEqual({ verdict: 'allow', rule: null, reason: null });
    });

    it("asks the sheet's own words for confirmation:", async () => {
      const run = await check({ tool: 'close_account', arguments: {} });
      expect(run.json).toMatchObject({ verdict: 'confirm', rule: 'close_account', confirmation: 'Close this account for good?' });
    });

    it('prints the confirm, refuse and allow verdicts as one line without --json', async () => {
      const confirm = await check({ tool: 'close_account' }, { json: false });
      expect(confirm.stdout).toBe('confirm (rule close_account): ask "Close this account for good?"\n');
      const refuse = await check({ tool: 'refund_card', arguments: { amount: 500 } }, { json: false });
      expect(refuse.stdout).toBe('refuse (rule refund_card): refund_card needs supervisor_approved, which this call does not have.\n');
      const allow = await check({ tool: 'refund_card', arguments: { amount: 5 } }, { json: false });
      expect(allow.stdout).toBe('allow\n');
    });
  });

  describe('order and at_most over the history', () => {
    it('refuses send_receipt before charge_card has run, and allows it after', async () => {
      const before = await check({ tool: 'send_receipt', arguments: {} });
      expect(before.json).toEqual({
        verdict: 'refuse',
        rule: 'send_receipt',
        reason: 'send_receipt runs only after charge_card, and charge_card has not run in this session.',
        code: 'ORDER_AFTER',
      });
      const after = await check({ tool: 'send_receipt', arguments: {}, history: [{ tool: 'charge_card', arguments: {}, result: {} }] });
      expect(after.json?.verdict).toBe('allow');
    });

    it('refuses a second send_receipt in a session: at_most 1', async () => {
      const run = await check({
        tool: 'send_receipt',
        arguments: {},
        history: [
          { tool: 'charge_card', arguments: {}, result: {} },
          { tool: 'send_receipt', arguments: {}, result: {} },
        ],
      });
      expect(run.json).toEqual({
        verdict: 'refuse',
        rule: 'send_receipt',
        reason: 'send_receipt runs at most once in a session, and it has run once.',
        code: 'AT_MOST_EXCEEDED',
      });
    });

    it('refuses close_account after a refund: not_after', async () => {
      const run = await check({
        tool: 'close_account',
        arguments: {},
        history: [{ tool: 'refund_card', arguments: { amount: 5 } }],
        confirmed: true,
      });
      expect(run.json).toEqual({
        verdict: 'refuse',
        rule: 'close_account',
        reason: 'close_account never runs after refund_card, which ran earlier in this session.',
        code: 'ORDER_NOT_AFTER',
      });
    });
  });

  describe("a check against an earlier tool's result", () => {
    it('allows a quantity within what check_stock returned and refuses one over it', async () => {
      const history = [{ tool: 'check_stock', arguments: { sku: 'A1' }, result: { in_stock: 3 } }];
      const within = await check({ tool: 'charge_card', arguments: { quantity: 3 }, history, confirmed: true });
      expect(within.json?.verdict).toBe('allow');
      const over = await check({ tool: 'charge_card', arguments: { quantity: 4 }, history, confirmed: true });
      expect(over.json).toEqual({
        verdict: 'refuse',
        rule: 'charge_card',
        reason: 'charge_card\'s check "quantity at_most from check_stock.in_stock" does not hold for this call.',
        code: 'CHECK_FAILED',
      });
    });

    it('reads the most recent earlier result of the tool', async () => {
      const history = [
        { tool: 'check_stock', result: { in_stock: 10 } },
        { tool: 'check_stock', result: { in_stock: 1 } },
      ];
      const run = await check({ tool: 'charge_card', arguments: { quantity: 2 }, history, confirmed: true });
      expect(run.json).toMatchObject({ verdict: 'refuse', code: 'CHECK_FAILED' });
    });

    it('refuses a check whose value cannot be read: no earlier call, no such field, or no quantity', async () => {
      const unreadable = {
        verdict: 'refuse',
        rule: 'charge_card',
        reason: 'charge_card\'s check "quantity at_most from check_stock.in_stock" cannot be read for this call, so the call is refused.',
        code: 'CHECK_UNREADABLE',
      };
      const cases = [
        { arguments: { quantity: 1 }, history: [] },
        { arguments: { quantity: 1 }, history: [{ tool: 'check_stock', result: { stock: 3 } }] },
        { arguments: { quantity: 1 }, history: [{ tool: 'check_stock', result: { in_stock: 'many' } }] },
        { arguments: {}, history: [{ tool: 'check_stock', result: { in_stock: 3 } }] },
        { arguments: { quantity: 'two' }, history: [{ tool: 'check_stock', result: { in_stock: 3 } }] },
      ];
      for (const c of cases) {
        const run = await check({ tool: 'charge_card', confirmed: true, ...c });
        expect(run.json, JSON.stringify(c)).toEqual(unreadable);
      }
    });
  });

  describe('the catalogue', () => {
    it('refuses a tool the catalogue does not hold, with rule null', async () => {
      const run = await check({ tool: 'delete_customer', arguments: {} });
      expect(run.json).toEqual({
        verdict: 'refuse',
        rule: null,
        reason: 'The catalogue holds no tool named delete_customer, so the call is refused.',
        code: 'TOOL_UNKNOWN',
      });
    });

    it('still applies the rulebook and the overlay without --catalogue', async () => {
      expect((await check({ tool: 'refund_card', arguments: { amount: 500 } }, { catalogue: false })).json).toEqual(NEEDS_SUPERVISOR);
      expect((await check({ tool: 'refund_card', arguments: { amount: 50 } }, { catalogue: false })).json?.verdict).toBe('allow');
      expect((await check({ tool: 'send_receipt', arguments: {} }, { catalogue: false })).json).toMatchObject({ code: 'ORDER_AFTER' });
      expect((await check({ tool: 'close_account' }, { catalogue: false })).json).toMatchObject({ verdict: 'confirm' });
    });

    it('exits 2 for a catalogue that does not load', async () => {
      const w = tempFolder();
      const catalogue = w.file('catalogue.yaml', 'tools: 3\n');
      const run = await runCli(
        'rules',
        'check',
        w.file('rules.yaml', SHOP_SHEET),
        '--call',
        w.file('call.json', { tool: 'refund_card', arguments: {} }),
        '--catalogue',
        catalogue,
      );
      expect(run).toEqual({ code: 2, stdout: '', stderr: `${catalogue}:1:8: INVALID_TYPE: tools is a list of tools\n` });
    });
  });

  describe('bad input', () => {
    it('exits 1 with the refusal lines when the rules are refused', async () => {
      const w = tempFolder();
      const sheet = w.file('unsupported.yaml', UNSUPPORTED_SHEET);
      const run = await runCli('rules', 'check', sheet, '--call', w.file('call.json', { tool: 'refund_card', arguments: {} }), '--json');
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`${unsupportedLine(sheet)}\n`);
    });

    it.each([
      ['an unknown member', { tool: 'refund_card', argumentz: {} }, 'unknown member "argumentz"'],
      ['no tool', { arguments: {} }, '"tool" names the called tool'],
      ['arguments that are a list', { tool: 'refund_card', arguments: [1] }, '"arguments" is an object'],
      [
        'contexts that are a list',
        { tool: 'refund_card', contexts: ['supervisor_approved'] },
        '"contexts" is an object of context names and true/false',
      ],
      ['history that is an object', { tool: 'refund_card', history: {} }, '"history" is a list of {"tool", "arguments", "result"}'],
      ['a history item with no tool', { tool: 'refund_card', history: [{ result: {} }] }, 'history item 0 needs a "tool"'],
      ['confirmed as a string', { tool: 'refund_card', confirmed: 'yes' }, '"confirmed" is true or false'],
    ])('exits 2 with INVALID_CALL for a call with %s', async (_name, call, message) => {
      const w = tempFolder();
      const file = w.file('call.json', call);
      const run = await runCli('rules', 'check', w.file('rules.yaml', SHOP_SHEET), '--call', file, '--json');
      expect(run.code).toBe(2);
      // --json: the failure as JSON on stdout too (docs/cli.md, "Failures under --json").
      expect(JSON.parse(run.stdout).errors).toEqual([expect.objectContaining({ code: 'INVALID_CALL', message, file })]);
      expect(run.stderr).toBe(`${file}: INVALID_CALL: ${message}\n`);
    });

    it('exits 2 with INVALID_CALL lines for a call that is not an object', async () => {
      const w = tempFolder();
      const file = w.file('call.json', '"refund_card"');
      const run = await runCli('rules', 'check', w.file('rules.yaml', SHOP_SHEET), '--call', file);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(
        `${file}: INVALID_CALL: a call is {"tool", "arguments", "contexts"?, "history"?, "confirmed"?}`,
      );
    });

    it('exits 2 for a call file that is not JSON, names a member twice, or is missing', async () => {
      const w = tempFolder();
      const sheet = w.file('rules.yaml', SHOP_SHEET);
      const notJson = w.file('broken.json', '{"tool": "refund_card",');
      const broken = await runCli('rules', 'check', sheet, '--call', notJson);
      expect(broken.code).toBe(2);
      expect(broken.stderr).toMatch(new RegExp(`^${escapeRegExp(notJson)}:1:\\d+: NOT_JSON: `));
      const twice = w.file('twice.json', '{"tool": "refund_card", "tool": "charge_card"}');
      const dup = await runCli('rules', 'check', sheet, '--call', twice);
      expect(dup.code).toBe(2);
      expect(dup.stderr).toContain('DUPLICATE_MEMBER');
      const missing = join(w.dir, 'none.json');
      expect(await runCli('rules', 'check', sheet, '--call', missing)).toEqual({
        code: 2,
        stdout: '',
        stderr: `${missing}: UNREADABLE: no such file\n`,
      });
    });

    it('exits 2 without --call', async () => {
      const w = tempFolder();
      const run = await runCli('rules', 'check', w.file('rules.yaml', SHOP_SHEET));
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe('tollgate rules check: missing --call');
    });
  });
});
