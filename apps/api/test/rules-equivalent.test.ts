// tollgate rules equivalent A B: a sheet and its Colang, a hand-written equivalent, the first difference.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-harness.ts';
import { removeWorkspaces, SHOP_SHEET, tempFolder, UNSUPPORTED_SHEET, unsupportedLine } from './rules-fixtures.ts';

afterEach(removeWorkspaces);

/** The shop sheet by hand: another context name, the guard's operands the other way round. */
const HAND_WRITTEN = `# By hand.
define context large_refund on refund_card
  amount > 200.00

define flow refund_card
  allow when $supervisor_approved or not $large_refund
`;

describe('tollgate rules equivalent', () => {
  it('exits 0 for a sheet and the Colang it compiled to (from --out-dir)', async () => {
    const w = tempFolder();
    const sheet = w.file('rules.yaml', SHOP_SHEET);
    const out = join(w.dir, 'compiled');
    expect((await runCli('rules', 'compile', sheet, '--out-dir', out)).code).toBe(0);
    const colang = join(out, 'rule_sheet.co');
    const run = await runCli('rules', 'equivalent', sheet, colang);
    expect(run).toEqual({ code: 0, stdout: `equivalent: ${sheet} and ${colang} compile to one rulebook\n`, stderr: '' });
  });

  it('exits 0 for every shape of rule: never, several requires, several when conditions, strings and booleans', async () => {
    const w = tempFolder();
    const sheet = w.file(
      'rules.yaml',
      [
        'rules:',
        '  - action: delete_customer',
        '    never: true',
        '  - action: refund_card',
        '    requires: [supervisor_approved, fraud_cleared]',
        '    when: { amount_at_least: 200.50, currency_is: "EUR", express_is: true }',
        '  - action: charge_card',
        '    requires: [card_verified]',
        '  - action: send_receipt',
        '    requires: [when_refund_card]',
        '    when: { total_under: -3 }',
        '',
      ].join('\n'),
    );
    const out = join(w.dir, 'compiled');
    expect((await runCli('rules', 'compile', sheet, '--out-dir', out)).code).toBe(0);
    expect((await runCli('rules', 'equivalent', sheet, join(out, 'rule_sheet.co'))).code).toBe(0);
    expect((await runCli('rules', 'equivalent', join(out, 'rule_sheet.co'), sheet)).code).toBe(0);
  });

  it('exits 0 for a sheet and a hand-written .co with other context names and operand order', async () => {
    const w = tempFolder();
    const sheet = w.file('rules.yaml', SHOP_SHEET);
    const colang = w.file('shop.co', HAND_WRITTEN);
    const run = await runCli('rules', 'equivalent', sheet, colang);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`equivalent: ${sheet} and ${colang} compile to one rulebook\n`);
  });

  it('exits 1 naming the first difference: another bound', async () => {
    const w = tempFolder();
    const a = w.file('a.yaml', SHOP_SHEET);
    const b = w.file('b.co', HAND_WRITTEN.replace('200.00', '300'));
    const run = await runCli('rules', 'equivalent', a, b);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(
      'not equivalent: first difference at /flows/refund_card/allow_when/any/1/not/value/decimal: refund_card: "200" differs from "300" at /flows/refund_card/allow_when/any/1/not/value/decimal\n',
    );
  });

  it('exits 1 naming the first difference: another required context', async () => {
    const w = tempFolder();
    const a = w.file('a.yaml', SHOP_SHEET);
    const b = w.file('b.yaml', SHOP_SHEET.replace('[supervisor_approved]', '[manager_approved]'));
    const run = await runCli('rules', 'equivalent', a, b);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      'not equivalent: first difference at /flows/refund_card/allow_when/any/0/context: refund_card: "supervisor_approved" differs from "manager_approved" at /flows/refund_card/allow_when/any/0/context\n',
    );
  });

  it('exits 1 naming a flow only one side has, in either order', async () => {
    const w = tempFolder();
    const a = w.file('a.yaml', SHOP_SHEET);
    const b = w.file('b.yaml', `${SHOP_SHEET}  - action: delete_customer\n    never: true\n`);
    const ab = await runCli('rules', 'equivalent', a, b);
    expect(ab.code).toBe(1);
    expect(ab.stdout).toBe(
      'not equivalent: first difference at /flows/delete_customer: only the second rulebook has a flow for delete_customer\n',
    );
    const ba = await runCli('rules', 'equivalent', b, a);
    expect(ba.code).toBe(1);
    expect(ba.stdout).toBe(
      'not equivalent: first difference at /flows/delete_customer: only the first rulebook has a flow for delete_customer\n',
    );
  });

  it('exits 1 for a refusal flow against an allow flow of the same action', async () => {
    const w = tempFolder();
    const a = w.file('a.co', 'define flow refund_card\n  refuse\n');
    const b = w.file('b.co', 'define flow refund_card\n  allow when $supervisor_approved\n');
    const run = await runCli('rules', 'equivalent', a, b);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^not equivalent: first difference at \/flows\/refund_card\/\w+: refund_card: /);
  });

  it('exits 1 when a file is refused, with its refusal lines, comparing nothing', async () => {
    const w = tempFolder();
    const bad = w.file('unsupported.yaml', UNSUPPORTED_SHEET);
    const good = w.file('rules.yaml', SHOP_SHEET);
    const run = await runCli('rules', 'equivalent', good, bad);
    expect(run).toEqual({ code: 1, stdout: 'not compared: a file was refused\n', stderr: `${unsupportedLine(bad)}\n` });
    const both = await runCli('rules', 'equivalent', bad, w.file('bad.co', 'define flow x\n  refuse\n  refuse\n'));
    expect(both.code).toBe(1);
    const lines = both.stderr.split('\n').filter(Boolean);
    expect(lines[0]).toBe(unsupportedLine(bad));
    expect(lines.slice(1).every((l) => /bad\.co:\d+:\d+: colang_\w+: .*The policy was not compiled; nothing was changed\.$/.test(l))).toBe(
      true,
    );
    expect(lines.length).toBeGreaterThan(1);
  });

  it.each([[[]], [['a.yaml']], [['a.yaml', 'b.yaml', 'c.yaml']]])('exits 2 for %j: wrong arity', async (files) => {
    const w = tempFolder();
    const paths = files.map((f) => w.file(f, SHOP_SHEET));
    const run = await runCli('rules', 'equivalent', ...paths);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')[0]).toBe(`tollgate rules equivalent: expected two files, A and B; got ${files.length}`);
  });

  it('exits 2 for a missing file or one of another extension', async () => {
    const w = tempFolder();
    const sheet = w.file('rules.yaml', SHOP_SHEET);
    const missing = join(w.dir, 'missing.co');
    expect(await runCli('rules', 'equivalent', sheet, missing)).toEqual({
      code: 2,
      stdout: '',
      stderr: `${missing}: UNREADABLE: no such file\n`,
    });
    const json = w.file('rules.json', '{}');
    const run = await runCli('rules', 'equivalent', json, sheet);
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe(`tollgate rules equivalent: ${json}: rules are a sheet (.yaml, .yml) or Colang (.co)`);
  });
});
