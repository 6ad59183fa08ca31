// tollgate verify DIR: a documents folder checked document by document; lints and problems listed.
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from './cli-harness.ts';
import {
  GOVERNED_SHEET,
  listFiles,
  REFUNDS_POLICY_TEXT,
  removeWorkspaces,
  SHOP_CATALOGUE,
  SHOP_SHEET,
  tempFolder,
  UNSUPPORTED_SHEET,
  unsupportedLine,
} from './rules-fixtures.ts';

afterEach(removeWorkspaces);

/** Colang by hand: one flow for a tool the catalogue lacks; charge_card and send_receipt have none. */
const SHOP_COLANG = `# The shop's rulebook, by hand.
define context big_refund on refund_card
  amount > 200

define flow refund_card
  allow when $supervisor_approved or not $big_refund

define flow close_account
  refuse

define flow delete_customer
  refuse
`;

const TAIL = '. The sheet was not compiled; nothing was changed.';

/** A documents folder whose every document is sound, with lints of every kind. */
function soundFolder() {
  const w = tempFolder();
  w.put('catalogue.yaml', SHOP_CATALOGUE);
  w.put('sheets/shop.rules.yaml', SHOP_SHEET);
  w.put('sheets/governed.rules.yml', GOVERNED_SHEET);
  w.put('colang/shop.co', SHOP_COLANG);
  w.put('policies/refunds.policy.json', REFUNDS_POLICY_TEXT);
  return w;
}

const SOUND_LINTS = [
  "colang/shop.co:1:1: write_ungoverned: the catalogue's write `charge_card` has no flow in the rulebook; name it so it is not left ungoverned by omission (warning)",
  "colang/shop.co:1:1: write_ungoverned: the catalogue's write `send_receipt` has no flow in the rulebook; name it so it is not left ungoverned by omission (warning)",
  'colang/shop.co:11:1: rule_action_unknown: the rulebook has a flow for `delete_customer`, which the catalogue does not hold (warning)',
  'policies/refunds.policy.json: RULE_MATCHES_NO_TOOL at /rules/0/actions: rule "read-orders" matches none of the given tools\' actions; check its patterns (warning)',
  'policies/refunds.policy.json: RULE_MATCHES_NO_TOOL at /rules/4/actions: rule "never" matches none of the given tools\' actions; check its patterns (warning)',
  "sheets/shop.rules.yaml:2:1: write_ungoverned: the catalogue's write `close_account` has no rule in the sheet; name it so it is not left ungoverned by omission (warning)",
];

describe('tollgate verify', () => {
  it('exits 0 for a folder with lints only, listing each lint and the summary', async () => {
    const w = soundFolder();
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${[...SOUND_LINTS, `verified 5 documents in ${w.dir}: 0 problems, 6 lints`].join('\n')}\n`);
  });

  it('exits 0 with "0 lints" for a folder with nothing to say, in the singular for one document', async () => {
    const w = tempFolder();
    w.put('catalogue.yaml', SHOP_CATALOGUE);
    expect(await runCli('verify', w.dir)).toEqual({
      code: 0,
      stdout: `verified 1 document in ${w.dir}: 0 problems, 0 lints\n`,
      stderr: '',
    });
    w.put('sheets/governed.rules.yaml', GOVERNED_SHEET);
    expect((await runCli('verify', w.dir)).stdout).toBe(`verified 2 documents in ${w.dir}: 0 problems, 0 lints\n`);
    w.put('sheets/one-lint.rules.yaml', `${GOVERNED_SHEET}  - action: delete_customer\n    never: true\n`);
    const one = await runCli('verify', w.dir);
    expect(one.code).toBe(0);
    expect(one.stdout).toBe(
      `sheets/one-lint.rules.yaml:14:1: rule_action_unknown: the sheet has a rule for \`delete_customer\`, which the catalogue does not hold (warning)\nverified 3 documents in ${w.dir}: 0 problems, 1 lint\n`,
    );
  });

  it('exits 1 listing a refused sheet, an invalid policy and refused Colang, each with its file', async () => {
    const w = soundFolder();
    w.put('sheets/unsupported.rules.yaml', UNSUPPORTED_SHEET);
    w.put(
      'sheets/many.rules.yaml',
      'rules:\n  - action: refund_card\n    when: { amount_over: 200 }\n  - action: close_account\n    never: true\n    at_most: 1\n',
    );
    w.put('policies/permissive.policy.json', JSON.stringify({ schema: 'tollgate/policy@1', default: 'allow', rules: [] }));
    w.put('policies/broken.policy.json', '{"schema": ');
    w.put('colang/broken.co', 'define flow refund_card\n  allow when\n');
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    for (const lint of SOUND_LINTS) expect(lines).toContain(lint);
    expect(lines).toContain(unsupportedLine('sheets/unsupported.rules.yaml'));
    expect(lines).toContain(
      `sheets/many.rules.yaml:3:5: rule_sheet_unsupported: when on a rule that requires nothing: the conditions say when the requirements apply${TAIL}`,
    );
    expect(lines).toContain(
      `sheets/many.rules.yaml:5:5: rule_sheet_unsupported: never with at_most beside it: an action that never runs has no other condition${TAIL}`,
    );
    expect(lines).toContain(
      'policies/permissive.policy.json: PERMISSIVE_DEFAULT at /default: a permissive default is not possible: allow what you want with a rule, and default to "deny" or "require_approval"',
    );
    expect(lines.filter((l) => l.startsWith('policies/broken.policy.json:'))).toHaveLength(1);
    expect(lines.filter((l) => l.startsWith('policies/broken.policy.json:'))[0]).toMatch(/NOT_JSON/);
    const colang = lines.filter((l) => l.startsWith('colang/broken.co:'));
    expect(colang.length).toBeGreaterThan(0);
    for (const l of colang)
      expect(l).toMatch(/^colang\/broken\.co:\d+:\d+: colang_syntax: .+\. The policy was not compiled; nothing was changed\.$/);
    const problems = 1 + 2 + 1 + 1 + colang.length;
    expect(lines.at(-1)).toBe(`verified 10 documents in ${w.dir}: ${problems} problems, 6 lints`);
  });

  it('exits 1 for a catalogue that does not load, naming its problems, and still checks the rest', async () => {
    const w = tempFolder();
    w.put('catalogue.yaml', 'tools:\n  - name: refund_card\n    action: refund.issue\n    kind: maybe\n');
    w.put('sheets/governed.rules.yaml', GOVERNED_SHEET);
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('catalogue.yaml:4:11: INVALID_VALUE: kind is read or write');
    expect(lines.at(-1)).toBe(`verified 2 documents in ${w.dir}: 1 problem, 4 lints`);
    expect(lines.filter((l) => l.startsWith('sheets/governed.rules.yaml:') && l.includes(': rule_action_unknown: '))).toHaveLength(4);
  });

  it('exits 1 for a tool in two catalogue files', async () => {
    const w = tempFolder();
    w.put('catalogue.yaml', SHOP_CATALOGUE);
    w.put('catalogues/more.yaml', 'tools:\n  - {name: refund_card, action: refund.issue, kind: write}\n');
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      `catalogues/more.yaml: DUPLICATE_TOOL: refund_card is in another catalogue file too\nverified 2 documents in ${w.dir}: 1 problem, 0 lints\n`,
    );
  });

  it('counts one problem in the singular', async () => {
    const w = tempFolder();
    w.put('sheets/unsupported.rules.yaml', UNSUPPORTED_SHEET);
    const run = await runCli('verify', w.dir);
    expect(run).toEqual({
      code: 1,
      stdout: `${unsupportedLine('sheets/unsupported.rules.yaml')}\nverified 1 document in ${w.dir}: 1 problem, 0 lints\n`,
      stderr: '',
    });
  });

  it('never follows a symlink out of the folder, to a file or to a folder', async () => {
    const outside = tempFolder();
    const badSheet = outside.put('unsupported.rules.yaml', UNSUPPORTED_SHEET);
    outside.put('colang/broken.co', 'define flow x\n');
    const w = tempFolder();
    w.put('catalogue.yaml', SHOP_CATALOGUE);
    w.put('sheets/governed.rules.yaml', GOVERNED_SHEET);
    symlinkSync(badSheet, join(w.dir, 'sheets', 'linked.rules.yaml'));
    symlinkSync(join(outside.dir, 'colang'), join(w.dir, 'colang'));
    expect(listFiles(w.dir)).toEqual(['catalogue.yaml', 'colang', 'sheets/governed.rules.yaml', 'sheets/linked.rules.yaml']);
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('rule_sheet_unsupported');
    expect(run.stdout).not.toContain('colang_syntax');
    expect(run.stdout.trim().split('\n').at(-1)).toBe(`verified 2 documents in ${w.dir}: 0 problems, 0 lints`);

    // The same sheet inside the folder is read, and refused: the link alone was not followed.
    w.put('sheets/copied.rules.yaml', UNSUPPORTED_SHEET);
    const copied = await runCli('verify', w.dir);
    expect(copied.code).toBe(1);
    expect(copied.stdout).toContain(unsupportedLine('sheets/copied.rules.yaml'));
  });

  it('skips hidden files and the .tollgate folder, and names other files it skips', async () => {
    const w = tempFolder();
    w.put('catalogue.yaml', SHOP_CATALOGUE);
    w.put('.tollgate/sheets/unsupported.rules.yaml', UNSUPPORTED_SHEET);
    w.put('sheets/.draft.rules.yaml', UNSUPPORTED_SHEET);
    w.put('notes.txt', 'not a document');
    const run = await runCli('verify', w.dir);
    expect(run).toEqual({
      code: 0,
      stdout: `notes.txt: not a document verify checks yet; skipped\nverified 1 document in ${w.dir}: 0 problems, 0 lints\n`,
      stderr: '',
    });
  });

  it('checks rule sets, agents, settings and example suites too, their references against the folder', async () => {
    const w = soundFolder();
    w.put('rulesets/shop.ruleset.json', JSON.stringify({ name: 'Shop', pins: [{ rule_id: 'sheets/shop.rules.yaml' }] }));
    w.put('agents/bot.agent.yaml', 'catalogue: catalogue.yaml\nruleset: rulesets/shop.ruleset.json\ndelegation:\n  actions: [refund.*]\n');
    w.put('settings.yaml', 'approved_rulesets_only: false\n');
    const sound = await runCli('verify', w.dir);
    expect(sound.code).toBe(0);
    expect(sound.stdout.trim().split('\n').at(-1)).toBe(`verified 8 documents in ${w.dir}: 0 problems, ${SOUND_LINTS.length} lints`);
    w.put('rulesets/broken.ruleset.json', JSON.stringify({ name: 'Broken', pins: [{ rule_id: 'colang/missing.co' }] }));
    w.put(
      'agents/lost.agent.yaml',
      'catalogue: catalogues/none.yaml\npolicy: policies/refunds.policy.json\ndelegation:\n  actions: [refund.*]\n',
    );
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('agents/lost.agent.yaml:1:12: REFERENCE_NOT_FOUND: catalogues/none.yaml is not in the store');
    expect(run.stdout).toMatch(/rulesets\/broken\.ruleset\.json:1:\d+: RULE_NOT_VISIBLE: colang\/missing\.co is not a rule you can see/);
  });

  it('refuses an approved rule set named without a version, or one the folder lacks', async () => {
    const w = soundFolder();
    w.put('rulesets/shop.ruleset.json', JSON.stringify({ name: 'Shop', pins: [{ rule_id: 'sheets/shop.rules.yaml', version_id: 1 }] }));
    w.put('settings.yaml', 'approved_rulesets_only: true\napproved_rulesets: [rulesets/shop.ruleset.json@1]\n');
    expect((await runCli('verify', w.dir)).code).toBe(0);
    w.put(
      'settings.yaml',
      'approved_rulesets_only: true\napproved_rulesets:\n  - rulesets/shop.ruleset.json\n  - rulesets/none.ruleset.json@1\n',
    );
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('settings.yaml:3:5: VERSION_REQUIRED: approve a version of the set: rulesets/shop.ruleset.json@N');
    expect(run.stdout).toContain('settings.yaml:4:5: REFERENCE_NOT_FOUND: rulesets/none.ruleset.json is not in the store');
  });

  it("runs each policy's example suite against it: an example that does not hold is a problem", async () => {
    const w = soundFolder();
    const suite = JSON.parse(readFileSync(new URL('../../../examples/refunds.examples.json', import.meta.url), 'utf8'));
    w.put('policies/refunds.examples.json', `${JSON.stringify(suite, null, 2)}\n`);
    const sound = await runCli('verify', w.dir);
    expect(sound.code).toBe(0);
    expect(sound.stdout.trim().split('\n').at(-1)).toBe(
      `verified 6 documents in ${w.dir}: 0 problems, ${SOUND_LINTS.length} lints; ${suite.examples.length} examples run against 1 policy`,
    );
    // The suite expects the 99.99 USD refund to be denied: the policy allows it.
    const wrong = structuredClone(suite);
    const example = wrong.examples.find((e: { name: string }) => e.name === 'a refund of 99.99 USD, below the automatic limit');
    example.expect = { decision: 'deny' };
    w.put('policies/refunds.examples.json', `${JSON.stringify(wrong, null, 2)}\n`);
    const run = await runCli('verify', w.dir);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'policies/refunds.examples.json: EXAMPLE_FAILED: a refund of 99.99 USD, below the automatic limit: expected deny, got allow, rule refund-auto',
    );
    expect(run.stdout.trim().split('\n').at(-1)).toMatch(/: 1 problem, \d+ lints; \d+ examples run against 1 policy$/);
    // A suite beside a refused policy does not run: the policy's problems are what is listed.
    w.put('policies/refunds.policy.json', '{"version": "policy@1"');
    const refused = await runCli('verify', w.dir);
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain('EXAMPLE_FAILED');
    expect(refused.stdout).not.toContain('examples run');
  });

  it('exits 2 for a DIR that is not there, or that is a file', async () => {
    const w = tempFolder();
    const missing = join(w.dir, 'missing');
    expect(await runCli('verify', missing)).toEqual({ code: 2, stdout: '', stderr: `${missing}: UNREADABLE: ENOENT\n` });
    const file = w.file('file.yaml', SHOP_SHEET);
    const run = await runCli('verify', file);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`${file}: UNREADABLE: ENOTDIR\n`);
  });

  it('exits 2 without a DIR', async () => {
    const run = await runCli('verify');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });
});
