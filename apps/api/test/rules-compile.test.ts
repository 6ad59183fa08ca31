// tollgate rules compile: exit codes 0/1/2/3, refusal and lint lines, --out-dir all or nothing, --json,
// Colang input, and --server against a real Tollgate service on loopback.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-harness.ts';
import {
  escapeRegExp,
  listFiles,
  removeWorkspaces,
  SHOP_CATALOGUE,
  SHOP_SHEET,
  startServer,
  tempFolder,
  UNSUPPORTED_SHEET,
  unsupportedLine,
} from './rules-fixtures.ts';
import { startServer as startDataServer } from './server-harness.ts';

afterEach(removeWorkspaces);

/** The shop sheet's rulebook, as docs/colang.md shows it. */
const SHOP_RULEBOOK = {
  format: 'tollgate/rulebook@1',
  flows: [
    {
      action: 'refund_card',
      allow_when: { any: [{ context: 'supervisor_approved' }, { not: { arg: 'amount', op: 'gt', value: { decimal: '200' } } }] },
    },
  ],
};

const SHOP_OVERLAY = {
  format: 'tollgate/catalogue-overlay@1',
  tools: {
    charge_card: { confirmation: 'Confirm the call to charge_card?' },
    send_receipt: { after: ['charge_card'], at_most: 1 },
  },
};

/** The shop sheet restated by hand in Colang. */
const SHOP_COLANG = `# The shop's rulebook, by hand.
define context big_refund on refund_card
  amount > 200

define flow refund_card
  allow when $supervisor_approved or not $big_refund
`;

describe('tollgate rules compile', () => {
  it('compiles the reference example sheet (docs/rule-sheets.md): exit 0, "compiled; nothing is kept", nothing written', async () => {
    const w = tempFolder();
    const sheet = w.file('rules.yaml', SHOP_SHEET);
    const run = await runCli('rules', 'compile', sheet);
    expect(run).toEqual({ code: 0, stdout: 'compiled; nothing is kept\n', stderr: '' });
    expect(listFiles(w.dir)).toEqual(['rules.yaml']);
  });

  it('refuses the reference unsupported.yaml with exit 1 and exactly the line docs/rule-sheets.md shows, naming the file as given', async () => {
    const w = tempFolder();
    const file = w.file('unsupported.yaml', UNSUPPORTED_SHEET);
    const run = await runCli('rules', 'compile', file);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`${unsupportedLine(file)}\n`);
  });

  it('names the file exactly as typed on the command line, relative paths included', async () => {
    const w = tempFolder();
    w.file('unsupported.yaml', UNSUPPORTED_SHEET);
    const cwd = process.cwd();
    process.chdir(w.dir);
    try {
      const run = await runCli('rules', 'compile', 'unsupported.yaml');
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        'unsupported.yaml:4:13: rule_sheet_unsupported: `refund_card` has a rule already: one rule per action, so how two would combine is never guessed. The sheet was not compiled; nothing was changed.\n',
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it('prints one line per problem of a sheet with several, each with its own line, in line order', async () => {
    const w = tempFolder();
    const file = w.file(
      'many.yaml',
      [
        'rules:',
        '  - action: refund_card',
        '    when: { amount_over: 200 }',
        '  - action: charge_card',
        '    never: true',
        '    at_most: 2',
        '  - action: send_receipt',
        '    colour: blue',
        '',
      ].join('\n'),
    );
    const run = await runCli('rules', 'compile', file);
    expect(run.code).toBe(1);
    const tail = '. The sheet was not compiled; nothing was changed.';
    expect(run.stderr.split('\n').filter(Boolean)).toEqual([
      `${file}:3:5: rule_sheet_unsupported: when on a rule that requires nothing: the conditions say when the requirements apply${tail}`,
      `${file}:5:5: rule_sheet_unsupported: never with at_most beside it: an action that never runs has no other condition${tail}`,
      `${file}:8:5: rule_sheet_unsupported: "colour" is not a key of a rule: use action, requires, when, never, requires_confirmation, confirmation, after, not_after, at_most, check${tail}`,
    ]);
  });

  it('prints lints to stderr as FILE:LINE:COLUMN: CODE: message (warning) and still exits 0', async () => {
    const w = tempFolder();
    const file = w.file('rules.yaml', `${SHOP_SHEET}  - action: delete_customer\n    never: true\n`);
    const run = await runCli('rules', 'compile', file, '--catalogue', w.file('catalogue.yaml', SHOP_CATALOGUE));
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('compiled; nothing is kept\n');
    expect(run.stderr.split('\n').filter(Boolean).sort()).toEqual([
      `${file}:11:1: rule_action_unknown: the sheet has a rule for \`delete_customer\`, which the catalogue does not hold (warning)`,
      `${file}:2:1: write_ungoverned: the catalogue's write \`close_account\` has no rule in the sheet; name it so it is not left ungoverned by omission (warning)`,
    ]);
  });

  it('prints the lints of a Colang file against the catalogue at the flow line', async () => {
    const w = tempFolder();
    const file = w.file('shop.co', `${SHOP_COLANG}\ndefine flow delete_customer\n  refuse\n`);
    const run = await runCli('rules', 'compile', file, '--catalogue', w.file('catalogue.yaml', SHOP_CATALOGUE));
    expect(run.code).toBe(0);
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines).toContain(
      `${file}:8:1: rule_action_unknown: the rulebook has a flow for \`delete_customer\`, which the catalogue does not hold (warning)`,
    );
    expect(lines.filter((l) => l.startsWith(`${file}:1:1: write_ungoverned: `)).map((l) => /`(\w+)`/.exec(l)?.[1])).toEqual([
      'charge_card',
      'send_receipt',
      'close_account',
    ]);
  });

  it('prints the --json shape: compiled, colang, rulebook, source_map, overlay, lints', async () => {
    const w = tempFolder();
    const file = w.file('rules.yaml', SHOP_SHEET);
    const run = await runCli('rules', 'compile', file, '--catalogue', w.file('catalogue.yaml', SHOP_CATALOGUE), '--json');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(Object.keys(json).sort()).toEqual(['colang', 'compiled', 'lints', 'overlay', 'rulebook', 'source_map']);
    expect(json.compiled).toBe(true);
    expect(json.rulebook).toEqual(SHOP_RULEBOOK);
    expect(json.overlay).toEqual(SHOP_OVERLAY);
    expect(json.source_map).toEqual({ file, flows: { refund_card: { line: 3 } }, contexts: {} });
    expect(json.colang).toContain('define context when_refund_card on refund_card\n  amount > 200\n');
    expect(json.colang).toContain('define flow refund_card\n  allow when not $when_refund_card or $supervisor_approved\n');
    expect(json.lints).toEqual([
      {
        code: 'write_ungoverned',
        severity: 'warning',
        message: "the catalogue's write `close_account` has no rule in the sheet; name it so it is not left ungoverned by omission",
        line: 2,
        column: 1,
        endLine: 2,
        endColumn: 1,
      },
    ]);
  });

  it('prints {compiled: false, problems} with --json on a refusal, and the refusal lines on stderr', async () => {
    const w = tempFolder();
    const file = w.file('unsupported.yaml', UNSUPPORTED_SHEET);
    const run = await runCli('rules', 'compile', file, '--json');
    expect(run.code).toBe(1);
    const json = JSON.parse(run.stdout);
    expect(json.compiled).toBe(false);
    expect(json.problems).toHaveLength(1);
    expect(json.problems[0]).toMatchObject({ code: 'rule_sheet_unsupported', severity: 'error', line: 4 });
    expect(run.stderr).toBe(`${unsupportedLine(file)}\n`);
  });

  it('compiles a hand-written .co file to the same rulebook as the sheet, with no Colang of its own', async () => {
    const w = tempFolder();
    const run = await runCli('rules', 'compile', w.file('shop.co', SHOP_COLANG), '--json');
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json.colang).toBeNull();
    expect(json.rulebook).toEqual(SHOP_RULEBOOK);
    expect(json.overlay).toEqual({ format: 'tollgate/catalogue-overlay@1', tools: {} });
    expect((await runCli('rules', 'compile', w.file('plain.co', SHOP_COLANG))).stdout).toBe('compiled; nothing is kept\n');
  });

  it('refuses a Colang file with its line and "The policy was not compiled"', async () => {
    const w = tempFolder();
    const file = w.file('bad.co', 'define flow refund_card\n  allow when $a or\n');
    const run = await runCli('rules', 'compile', file);
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(
        new RegExp(`^${escapeRegExp(file)}:\\d+:\\d+: colang_\\w+: .+\\. The policy was not compiled; nothing was changed\\.$`),
      );
  });

  describe('--out-dir', () => {
    it('writes exactly rule_sheet.co, rulebook.ir.json and catalogue_overlay.json, equal to the --json output', async () => {
      const w = tempFolder();
      const file = w.file('rules.yaml', SHOP_SHEET);
      const out = join(w.dir, 'compiled');
      const run = await runCli('rules', 'compile', file, '--out-dir', out);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`compiled; wrote rule_sheet.co, rulebook.ir.json, catalogue_overlay.json to ${out}\n`);
      expect(listFiles(out)).toEqual(['catalogue_overlay.json', 'rule_sheet.co', 'rulebook.ir.json']);
      const json = JSON.parse((await runCli('rules', 'compile', file, '--json')).stdout);
      expect(readFileSync(join(out, 'rule_sheet.co'), 'utf8')).toBe(json.colang);
      const ir = readFileSync(join(out, 'rulebook.ir.json'), 'utf8');
      expect(JSON.parse(ir)).toEqual(json.rulebook);
      expect(JSON.parse(readFileSync(join(out, 'catalogue_overlay.json'), 'utf8'))).toEqual(json.overlay);
      // Canonical: keys sorted at every level, no source positions.
      expect(ir.startsWith('{\n  "flows": [')).toBe(true);
      expect(ir).not.toContain('"line"');
      expect(ir.endsWith('}\n')).toBe(true);
    });

    it('writes only rulebook.ir.json and catalogue_overlay.json for a .co input', async () => {
      const w = tempFolder();
      const out = join(w.dir, 'compiled');
      const run = await runCli('rules', 'compile', w.file('shop.co', SHOP_COLANG), '--out-dir', out);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(`compiled; wrote rulebook.ir.json, catalogue_overlay.json to ${out}\n`);
      expect(listFiles(out)).toEqual(['catalogue_overlay.json', 'rulebook.ir.json']);
      expect(JSON.parse(readFileSync(join(out, 'rulebook.ir.json'), 'utf8'))).toEqual(SHOP_RULEBOOK);
      expect(JSON.parse(readFileSync(join(out, 'catalogue_overlay.json'), 'utf8'))).toEqual({
        format: 'tollgate/catalogue-overlay@1',
        tools: {},
      });
    });

    it('writes nothing into --out-dir for a refused sheet, not even the folder, and leaves earlier output alone', async () => {
      const w = tempFolder();
      const file = w.file('unsupported.yaml', UNSUPPORTED_SHEET);
      const fresh = join(w.dir, 'fresh');
      const refused = await runCli('rules', 'compile', file, '--out-dir', fresh);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(`${unsupportedLine(file)}\n`);
      expect(existsSync(fresh)).toBe(false);

      const kept = join(w.dir, 'kept');
      expect((await runCli('rules', 'compile', w.file('rules.yaml', SHOP_SHEET), '--out-dir', kept)).code).toBe(0);
      const before = Object.fromEntries(listFiles(kept).map((f) => [f, readFileSync(join(kept, f), 'utf8')]));
      expect((await runCli('rules', 'compile', file, '--out-dir', kept)).code).toBe(1);
      expect(Object.fromEntries(listFiles(kept).map((f) => [f, readFileSync(join(kept, f), 'utf8')]))).toEqual(before);
    });

    it('exits 2 for an --out-dir under a regular file, leaving no temp files', async () => {
      const w = tempFolder();
      const file = w.file('rules.yaml', SHOP_SHEET);
      w.file('blocker', 'a regular file');
      const out = join(w.dir, 'blocker', 'compiled');
      const run = await runCli('rules', 'compile', file, '--out-dir', out);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`${out}: UNWRITABLE: ENOTDIR; nothing was written\n`);
      expect(listFiles(w.dir)).toEqual(['blocker', 'rules.yaml']);
      expect(readFileSync(join(w.dir, 'blocker'), 'utf8')).toBe('a regular file');
    });

    it('is all or nothing when one target cannot be replaced: no file of the set is written or changed', async () => {
      // catalogue_overlay.json is renamed last; a folder of that name makes its rename fail after the
      // other two would already be in place unless the write is truly all or nothing.
      const w = tempFolder();
      const file = w.file('rules.yaml', SHOP_SHEET);
      const out = join(w.dir, 'compiled');
      mkdirSync(join(out, 'catalogue_overlay.json'), { recursive: true });
      writeFileSync(join(out, 'catalogue_overlay.json', 'keep'), 'x');
      writeFileSync(join(out, 'rule_sheet.co'), 'earlier\n');
      const run = await runCli('rules', 'compile', file, '--out-dir', out);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/UNWRITABLE: \w+; nothing was written\n$/);
      expect(listFiles(out)).toEqual(['catalogue_overlay.json/keep', 'rule_sheet.co']);
      expect(readFileSync(join(out, 'rule_sheet.co'), 'utf8')).toBe('earlier\n');
    });
  });

  describe('unreadable input: exit 2', () => {
    it('exits 2 for a missing file, naming it', async () => {
      const w = tempFolder();
      const missing = join(w.dir, 'missing.yaml');
      const run = await runCli('rules', 'compile', missing);
      expect(run).toEqual({ code: 2, stdout: '', stderr: `${missing}: UNREADABLE: no such file\n` });
    });

    it('exits 2 for a file that is neither a sheet nor Colang', async () => {
      const w = tempFolder();
      const file = w.file('rules.txt', SHOP_SHEET);
      const run = await runCli('rules', 'compile', file);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(`tollgate rules compile: ${file}: rules are a sheet (.yaml, .yml) or Colang (.co)`);
    });

    it('exits 2 for a catalogue that does not load, listing its problems, and writes nothing', async () => {
      const w = tempFolder();
      const catalogue = w.file('catalogue.yaml', 'tools:\n  - name: refund_card\n    action: refund.issue\n    kind: maybe\n');
      const out = join(w.dir, 'compiled');
      const run = await runCli('rules', 'compile', w.file('rules.yaml', SHOP_SHEET), '--catalogue', catalogue, '--out-dir', out);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(`${catalogue}:4:11: INVALID_VALUE: kind is read or write\n`);
      expect(existsSync(out)).toBe(false);
    });

    it('exits 2 for a missing catalogue and for a catalogue of another extension', async () => {
      const w = tempFolder();
      const sheet = w.file('rules.yaml', SHOP_SHEET);
      const missing = join(w.dir, 'none.yaml');
      expect(await runCli('rules', 'compile', sheet, '--catalogue', missing)).toEqual({
        code: 2,
        stdout: '',
        stderr: `${missing}: UNREADABLE: no such file\n`,
      });
      const txt = w.file('catalogue.txt', SHOP_CATALOGUE);
      const run = await runCli('rules', 'compile', sheet, '--catalogue', txt);
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe(`tollgate rules compile: ${txt}: a catalogue is .yaml, .yml or .json`);
    });

    it('exits 2 when FILE is missing from the command line', async () => {
      const run = await runCli('rules', 'compile');
      expect(run.code).toBe(2);
      expect(run.stderr.split('\n')[0]).toBe('tollgate rules compile: expected one FILE, got none');
    });
  });

  describe('--server, against a real service on loopback', () => {
    it('gives the same rulebook, overlay and lints as a local compile', async () => {
      const server = await startServer();
      try {
        const w = tempFolder();
        const file = w.file('rules.yaml', SHOP_SHEET);
        const catalogue = w.file('catalogue.yaml', SHOP_CATALOGUE);
        const local = await runCli('rules', 'compile', file, '--catalogue', catalogue, '--json');
        const remote = await runCli('rules', 'compile', file, '--catalogue', catalogue, '--json', '--server', server.url);
        expect(remote.code).toBe(0);
        const [l, r] = [JSON.parse(local.stdout), JSON.parse(remote.stdout)];
        expect(r.rulebook).toEqual(SHOP_RULEBOOK);
        expect(r.rulebook).toEqual(l.rulebook);
        expect(r.overlay).toEqual(l.overlay);
        expect(r.lints).toEqual(l.lints);
        expect(remote.stderr).toBe(local.stderr);
        expect(remote.stderr).toMatch(new RegExp(`^${escapeRegExp(file)}:2:1: write_ungoverned: `));

        const plain = await runCli('rules', 'compile', file, '--server', server.url);
        expect(plain).toEqual({ code: 0, stdout: 'compiled; nothing is kept\n', stderr: '' });

        const out = join(w.dir, 'compiled');
        expect((await runCli('rules', 'compile', file, '--server', server.url, '--out-dir', out)).code).toBe(0);
        expect(listFiles(out)).toEqual(['catalogue_overlay.json', 'rule_sheet.co', 'rulebook.ir.json']);
        expect(JSON.parse(readFileSync(join(out, 'rulebook.ir.json'), 'utf8'))).toEqual(l.rulebook);
      } finally {
        await server.close();
      }
    });

    it('compiles on a data-folder server with TOLLGATE_KEY, and is refused without the catalogue grant', async () => {
      const server = await startDataServer();
      const saved = process.env.TOLLGATE_KEY;
      try {
        const w = tempFolder();
        const file = w.file('rules.yaml', SHOP_SHEET);
        process.env.TOLLGATE_KEY = server.key('developer');
        const remote = await runCli('rules', 'compile', file, '--json', '--server', server.url);
        expect(remote.code).toBe(0);
        expect(JSON.parse(remote.stdout).rulebook).toEqual(SHOP_RULEBOOK);
        process.env.TOLLGATE_KEY = server.key('viewer');
        const refused = await runCli('rules', 'compile', file, '--server', server.url);
        expect(refused.code).toBe(4);
        expect(refused.stderr).toContain('403 GRANT_REQUIRED');
      } finally {
        if (saved === undefined) delete process.env.TOLLGATE_KEY;
        else process.env.TOLLGATE_KEY = saved;
        await server.stop();
      }
    });

    it('exits 1 with the same refusal lines as a local compile, writing nothing', async () => {
      const server = await startServer();
      try {
        const w = tempFolder();
        const file = w.file('unsupported.yaml', UNSUPPORTED_SHEET);
        const out = join(w.dir, 'compiled');
        const remote = await runCli('rules', 'compile', file, '--server', server.url, '--out-dir', out);
        const local = await runCli('rules', 'compile', file);
        expect(remote.code).toBe(1);
        expect(remote.stderr).toBe(`${unsupportedLine(file)}\n`);
        expect(remote.stderr).toBe(local.stderr);
        expect(existsSync(out)).toBe(false);
      } finally {
        await server.close();
      }
    });

    it('exits 2, as a local compile does, for a catalogue that does not load, never blaming the sheet', async () => {
      const server = await startServer();
      try {
        const w = tempFolder();
        const file = w.file('rules.yaml', SHOP_SHEET);
        const catalogue = w.file('catalogue.yaml', 'tools:\n  - name: refund_card\n    action: refund.issue\n    kind: maybe\n');
        const local = await runCli('rules', 'compile', file, '--catalogue', catalogue);
        const remote = await runCli('rules', 'compile', file, '--catalogue', catalogue, '--server', server.url);
        expect(local.code).toBe(2);
        expect(remote.code).toBe(2);
        expect(remote.stderr).toContain(catalogue);
        expect(remote.stderr).not.toContain('rule_sheet_unsupported');
        expect(remote.stderr).not.toContain(`${file}:`);
      } finally {
        await server.close();
      }
    });

    it('exits 3 when the service cannot be reached, writing nothing', async () => {
      const server = await startServer();
      const url = server.url;
      await server.close();
      const w = tempFolder();
      const file = w.file('rules.yaml', SHOP_SHEET);
      const out = join(w.dir, 'compiled');
      const run = await runCli('rules', 'compile', file, '--server', url, '--out-dir', out);
      expect(run.code).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(new RegExp(`^${escapeRegExp(file)}: the service at ${escapeRegExp(url)} cannot be reached: \\w+\n`));
      expect(run.stderr).toContain('the sheet was not compiled; nothing was changed\n');
      expect(existsSync(out)).toBe(false);
    });

    it('exits 2 for an unreadable file before reaching for the service, and for a --server that is not a URL', async () => {
      const w = tempFolder();
      const missing = join(w.dir, 'missing.yaml');
      // A port nobody listens on: reaching for it would exit 3, not 2.
      const server = await startServer();
      await server.close();
      const run = await runCli('rules', 'compile', missing, '--server', server.url);
      expect(run).toEqual({ code: 2, stdout: '', stderr: `${missing}: UNREADABLE: no such file\n` });
      const notUrl = await runCli('rules', 'compile', w.file('rules.yaml', SHOP_SHEET), '--server', 'not a url');
      expect(notUrl.code).toBe(2);
      expect(notUrl.stderr.split('\n')[0]).toBe('tollgate rules compile: --server not a url is not a URL');
    });
  });
});
