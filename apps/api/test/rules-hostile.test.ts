// Sheets and Colang that would be guessed at, crash or stall, through the CLI and HTTP: each is refused
// with its code and line (docs/rule-sheets.md, "Refused, never approximated"; docs/colang.md, "Limits"),
// never exit 70 and never a 500, and nothing is written or stored.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileBody } from '../src/server/compile-body.ts';
import { runCli } from './cli-harness.ts';
import { listFiles, removeWorkspaces, SHOP_CATALOGUE, SHOP_SHEET, startServer, tempFolder } from './rules-fixtures.ts';
import { startServer as startDataServer } from './server-harness.ts';

afterEach(removeWorkspaces);

const DEEP_PARENS = `define flow refund_card\n  allow when ${'('.repeat(3000)}$supervisor_approved${')'.repeat(3000)}\n`;
const DEEP_NOTS = `# five thousand nots\ndefine flow refund_card\n  allow when ${'not '.repeat(5000)}$supervisor_approved\n`;

/** The refusal lines of a run (`file:line:column: CODE: ...`) as [file:line, code]. */
function refusals(stderr: string): string[][] {
  return stderr
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const m = /^(.*?:\d+):\d+: (\w+): /.exec(l);
      return m ? [m[1] as string, m[2] as string] : [l];
    });
}

async function compile(name: string, text: string, ...flags: string[]) {
  const w = tempFolder();
  const file = w.file(name, text);
  return { file, w, run: await runCli('rules', 'compile', file, ...flags) };
}

describe('rules compile refuses what it would have to guess, each at its line', () => {
  it('a condition named twice in when (it compiled to a guard that never holds)', async () => {
    const sheet = 'rules:\n  - action: refund_card\n    requires: [supervisor_approved]\n    when: {region_is: "EU", region_is: "US"}\n';
    const { file, run } = await compile('rules.yaml', sheet);
    expect(run.code).toBe(1);
    expect(refusals(run.stderr)).toEqual([[`${file}:4`, 'rule_sheet_unsupported']]);
    expect(run.stderr).toContain('when names region_is twice: which one counts would be a guess');
    // rules check no longer lets an EU refund through without the approval: the sheet is refused.
    const w = tempFolder();
    const check = await runCli(
      'rules',
      'check',
      w.file('rules.yaml', sheet),
      '--call',
      w.file('call.json', { tool: 'refund_card', arguments: { region: 'EU' } }),
    );
    expect(check.code).toBe(1);
    const amounts = await compile(
      'rules.yaml',
      sheet.replace('{region_is: "EU", region_is: "US"}', '{amount_over: 200, amount_over: 100}'),
    );
    expect(refusals(amounts.run.stderr)).toEqual([[`${amounts.file}:4`, 'rule_sheet_unsupported']]);
  });

  it('an empty sheet, and --out-dir keeps the good rulebook it already holds', async () => {
    for (const text of ['', '  \n\n', '# rules to come\n']) {
      const { file, run } = await compile('rules.yaml', text);
      expect(run.code).toBe(1);
      expect(refusals(run.stderr)).toEqual([[`${file}:1`, 'rule_sheet_unsupported']]);
      expect(run.stderr).toContain('the sheet is empty');
    }
    const w = tempFolder();
    const out = join(w.dir, 'rules');
    expect((await runCli('rules', 'compile', w.file('good.yaml', SHOP_SHEET), '--out-dir', out)).code).toBe(0);
    const before = readFileSync(join(out, 'rulebook.ir.json'), 'utf8');
    const emptied = await runCli('rules', 'compile', w.file('rules.yaml', ''), '--out-dir', out);
    expect(emptied.code).toBe(1);
    expect(readFileSync(join(out, 'rulebook.ir.json'), 'utf8')).toBe(before);
  });

  it('YAML directives, tags and anchors on the sheet, on rules: and on keys', async () => {
    const cases: [string, number][] = [
      ['%YAML 1.1\n---\nrules:\n  - action: delete_customer\n    never: yes\n', 1],
      ['# shop\n%TAG !s! tag:shop.example,2026:\n---\nrules:\n  - action: delete_customer\n    never: true\n', 2],
      ['rules: !!seq\n  - action: delete_customer\n    never: true\n', 1],
      ['rules: &r\n  - action: delete_customer\n    never: true\n', 1],
      ['rules:\n  - action: delete_customer\n    !!str never: true\n', 3],
    ];
    for (const [text, line] of cases) {
      const { file, run } = await compile('rules.yaml', text);
      expect(run.code, text).toBe(1);
      expect(refusals(run.stderr), text).toEqual([[`${file}:${line}`, 'rule_sheet_unsupported']]);
    }
  });

  it('a rule that says nothing, which would silence write_ungoverned', async () => {
    const sheet = 'rules:\n  - action: refund_card\n    requires_confirmation: false\n';
    const w = tempFolder();
    const file = w.file('rules.yaml', sheet);
    const run = await runCli('rules', 'compile', file, '--catalogue', w.file('catalogue.yaml', SHOP_CATALOGUE));
    expect(run.code).toBe(1);
    expect(refusals(run.stderr)).toEqual([[`${file}:2`, 'rule_sheet_unsupported']]);
    expect(run.stderr).toContain('the rule for `refund_card` says nothing');
  });

  it('a lone CR: one problem, at the line it ends', async () => {
    const { file, run } = await compile('rules.yaml', 'rules:\r  - action: x\r    nope: 1\r');
    expect(run.code).toBe(1);
    expect(refusals(run.stderr)).toEqual([[`${file}:1`, 'rule_sheet_unsupported']]);
    const later = await compile('rules.yaml', 'rules:\n  - action: x\n    never: true\r  - action: y\n');
    expect(refusals(later.run.stderr)).toEqual([[`${later.file}:3`, 'rule_sheet_unsupported']]);
  });

  it('confirmation words over 500 characters, as the catalogue caps them: rule_sheet_limit', async () => {
    const { file, run } = await compile('rules.yaml', `rules:\n  - action: close_account\n    confirmation: "${'x'.repeat(900_000)}"\n`);
    expect(run.code).toBe(1);
    expect(refusals(run.stderr)).toEqual([[`${file}:3`, 'rule_sheet_limit']]);
  });

  it('lists over 1000 names: rule_sheet_limit, at once', async () => {
    const names = Array.from({ length: 60_000 }, (_, i) => `ctx_${i}`).join(', ');
    const { file, run } = await compile('rules.yaml', `rules:\n  - action: refund_card\n    requires: [${names}]\n`);
    expect(run.code).toBe(1);
    expect(refusals(run.stderr)).toEqual([[`${file}:3`, 'rule_sheet_limit']]);
  });
});

describe('deep Colang: colang_limit with its line, never exit 70', () => {
  it('rules compile, check and equivalent refuse 3,000 parentheses and 5,000 nots (exit 1)', async () => {
    const w = tempFolder();
    const parens = w.file('parens.co', DEEP_PARENS);
    const nots = w.file('nots.co', DEEP_NOTS);
    const call = w.file('call.json', { tool: 'refund_card', arguments: {} });
    for (const [file, line] of [
      [parens, 2],
      [nots, 3],
    ] as const) {
      const compiled = await runCli('rules', 'compile', file);
      expect(compiled.code).toBe(1);
      expect(refusals(compiled.stderr)).toEqual([[`${file}:${line}`, 'colang_limit']]);
      const checked = await runCli('rules', 'check', file, '--call', call);
      expect(checked.code).toBe(1);
      expect(refusals(checked.stderr)).toEqual([[`${file}:${line}`, 'colang_limit']]);
    }
    const equivalent = await runCli('rules', 'equivalent', parens, nots);
    expect(equivalent.code).toBe(1);
    expect(refusals(equivalent.stderr).slice(0, 2)).toEqual([
      [`${parens}:2`, 'colang_limit'],
      [`${nots}:3`, 'colang_limit'],
    ]);
  });

  it('POST /v1/rule-sheets/compile answers 422 COLANG_UNSUPPORTED with colang_limit at the line, never 500', async () => {
    const server = await startServer();
    try {
      for (const [colang, line] of [
        [DEEP_PARENS, 2],
        [DEEP_NOTS, 3],
      ] as const) {
        const res = await fetch(`${server.url}/v1/rule-sheets/compile`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ colang }),
        });
        expect(res.status).toBe(422);
        const body = (await res.json()) as { error: { code: string; details: { problems: { code: string; line: number }[] } } };
        expect(body.error.code).toBe('COLANG_UNSUPPORTED');
        expect(body.error.details.problems.map((p) => [p.code, p.line])).toEqual([['colang_limit', line]]);
      }
    } finally {
      await server.close();
    }
  });
});

describe('a big compile runs off the event loop', () => {
  /** A valid sheet of `rules` rules, some 100 bytes each: 3000 are well over the inline size. */
  function bigSheet(rules: number): string {
    let text = 'rules:\n';
    for (let i = 0; i < rules; i++) {
      text += `  - action: tool_${i}\n    requires: [approved_${i % 7}, checked]\n    when: { amount_over: ${100 + i}, region_is: "eu" }\n`;
    }
    return text;
  }

  it('answers what an inline compile answers, and /v1/health answers while it runs', async () => {
    const server = await startServer();
    try {
      const sheet = bigSheet(3000);
      const post = (body: unknown) =>
        fetch(`${server.url}/v1/rule-sheets/compile`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const order: string[] = [];
      const compiled = post({ sheet }).then(async (res) => {
        order.push('compile');
        return { status: res.status, body: await res.json() };
      });
      // The compile takes seconds; on the event loop it would answer before health could.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const health = await fetch(`${server.url}/v1/health`);
      order.push('health');
      expect(health.status).toBe(200);
      const remote = await compiled;
      expect(order).toEqual(['health', 'compile']);
      expect(remote.status).toBe(200);
      expect(remote.body).toEqual(compileBody({ sheet }).body);
      // A refusal comes back the same way, with its line.
      const refused = await post({ sheet: `${sheet}  - action: tool_1\n    never: true\n` });
      expect(refused.status).toBe(422);
      expect(await refused.json()).toEqual(compileBody({ sheet: `${sheet}  - action: tool_1\n    never: true\n` }).body);
    } finally {
      await server.close();
    }
  });
});

describe('the edit route refuses them too, and stores nothing', () => {
  it('0 bytes over the support sheet, and deep Colang', async () => {
    const server = await startDataServer();
    try {
      const sheet = `/v1/documents/${encodeURIComponent('sheets/support.rules.yaml')}`;
      const before = await server.call('GET', sheet, { key: server.key('viewer') });
      const emptied = await server.call('POST', `${sheet}/edits`, {
        key: server.key('owner'),
        body: { content: '', reason: 'empty', based_on: before.json.version.sequence },
      });
      expect(emptied.status).toBe(422);
      expect(emptied.json.status).toBe('refused');
      expect(emptied.json.reasons).toMatchObject([{ code: 'rule_sheet_unsupported', line: 1 }]);
      const after = await server.call('GET', sheet, { key: server.key('viewer') });
      expect(after.json.text).toBe(before.json.text);

      const colang = `/v1/documents/${encodeURIComponent('colang/deep.co')}`;
      for (const content of [DEEP_PARENS, DEEP_NOTS]) {
        const deep = await server.call('POST', `${colang}/edits`, {
          key: server.key('owner'),
          body: { content, reason: 'deep', based_on: null },
        });
        expect(deep.status).toBe(422);
        expect(deep.json.status).toBe('refused');
        expect(deep.json.reasons[0]).toMatchObject({ code: 'colang_limit', severity: 'error' });
      }
    } finally {
      await server.stop();
    }
  });
});

describe('tollgate verify over a folder holding them', () => {
  it('exits 1 naming each at its line, never 70', async () => {
    const w = tempFolder();
    w.put('catalogue.yaml', SHOP_CATALOGUE);
    w.put('sheets/empty.rules.yaml', '');
    w.put('sheets/twice.rules.yaml', 'rules:\n  - action: refund_card\n    requires: [a]\n    when: {region_is: "EU", region_is: "US"}\n');
    w.put('colang/parens.co', DEEP_PARENS);
    w.put('colang/nots.co', DEEP_NOTS);
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(1);
    const lines = run.stdout.split('\n');
    for (const start of [
      'sheets/empty.rules.yaml:1: rule_sheet_unsupported',
      'sheets/twice.rules.yaml:4: rule_sheet_unsupported',
      'colang/parens.co:2: colang_limit',
      'colang/nots.co:3: colang_limit',
    ]) {
      // FILE:LINE:COLUMN: CODE: the column is where on the line the problem stands.
      const [file, line, code] = start.split(/: |:/);
      expect(
        lines.some((l) => new RegExp(`^${file?.replace(/\./g, '\\.')}:${line}:\\d+: ${code}`).test(l)),
        `${start} in ${run.stdout}`,
      ).toBe(true);
    }
  });
});

describe('the CLI at its edges', () => {
  it('--out-dir: compiling a .co where a sheet compiled removes the stale rule_sheet.co with the same step', async () => {
    const w = tempFolder();
    const out = join(w.dir, 'rules');
    expect((await runCli('rules', 'compile', w.file('rules.yaml', SHOP_SHEET), '--out-dir', out)).code).toBe(0);
    expect(listFiles(out)).toEqual(['catalogue_overlay.json', 'rule_sheet.co', 'rulebook.ir.json']);
    const co = w.file('shop.co', 'define flow delete_customer\n  refuse\n');
    const run = await runCli('rules', 'compile', co, '--out-dir', out);
    expect(run.code).toBe(0);
    expect(listFiles(out)).toEqual(['catalogue_overlay.json', 'rulebook.ir.json']);
    expect(JSON.parse(readFileSync(join(out, 'rulebook.ir.json'), 'utf8')).flows).toEqual([{ action: 'delete_customer', refuse: true }]);
  });

  it('a FIFO named as the sheet: exit 2 at once, not a hang', async () => {
    const w = tempFolder();
    const fifo = join(w.dir, 'rules.yaml');
    execFileSync('mkfifo', [fifo]);
    const run = await runCli('rules', 'compile', fifo);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`${fifo}: UNREADABLE: not a regular file\n`);
  });

  it('--server: exit 4 when the service answers 401, 403 or 500 (3 stays "could not be reached")', async () => {
    const w = tempFolder();
    const file = w.file('rules.yaml', SHOP_SHEET);
    const data = await startDataServer();
    const saved = process.env.TOLLGATE_KEY;
    try {
      delete process.env.TOLLGATE_KEY;
      const unauthorised = await runCli('rules', 'compile', file, '--server', data.url);
      expect(unauthorised.code).toBe(4);
      expect(unauthorised.stderr).toContain('answered 401');
      process.env.TOLLGATE_KEY = data.key('viewer');
      const forbidden = await runCli('rules', 'compile', file, '--server', data.url);
      expect(forbidden.code).toBe(4);
      expect(forbidden.stderr).toContain('answered 403 GRANT_REQUIRED');
    } finally {
      if (saved === undefined) delete process.env.TOLLGATE_KEY;
      else process.env.TOLLGATE_KEY = saved;
      await data.stop();
    }
    const failing = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'broken' } }));
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
      const run = await runCli('rules', 'compile', file, '--server', url);
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('answered 500 INTERNAL: broken');
    } finally {
      failing.close();
    }
  });
});
