// Usage errors of every command: the one-line reason, then the command's synopsis and where its help is, never
// the whole help text; `--help` after a command prints its part; a wrong key is not a usage error (docs/cli.md).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../src/cli/usage.ts';
import { runCli, workspace } from './cli-harness.ts';
import { startServer } from './server-harness.ts';

/** One usage error of each command, and the command its pointer names. */
const USAGE_ERRORS: [string[], string][] = [
  [['serve', '--port', '70000'], 'serve'],
  [['serve', '--language-revision', '9'], 'serve'],
  [['migrate', '--database', 'mysql://x'], 'migrate'],
  [['mcp'], 'mcp'],
  [['mcp', 'import', 'servers.json'], 'mcp import'],
  [['import', '--data', 'x'], 'import'],
  [['export', '--data', 'x'], 'export'],
  [['keys', 'create', '--data', 'x'], 'keys create'],
  [['members', 'list'], 'members list'],
  [['member-key-secret', 'rotate', '--data', 'x'], 'member-key-secret rotate'],
  [['policy', 'validate'], 'policy validate'],
  [['policy', 'evaluate', 'a', 'b'], 'policy evaluate'],
  [['policy', 'test'], 'policy test'],
  [['policy', 'map'], 'policy map'],
  [['policy', 'diff', 'one'], 'policy diff'],
  [['policy', 'template', 'create', 'x', '--param', 'novalue'], 'policy template create'],
  [['rules', 'compile'], 'rules compile'],
  [['rules', 'check', 'a', 'b'], 'rules check'],
  [['rules', 'equivalent', 'a'], 'rules equivalent'],
  [['ruleset', 'validate'], 'ruleset validate'],
  [['ruleset', 'run', 'x', '--call', 'c.json', '--version', '0'], 'ruleset run'],
  [['store', 'check', '--frob'], 'store check'],
  [['store', 'repair'], 'store repair'],
  [['approvals', 'key', 'create'], 'approvals key create'],
  [['approvals', 'approve', '--key', 'k.pem'], 'approvals approve'],
  [['approvals', 'deny', 'a', 'b'], 'approvals deny'],
  [['trial', 'start', 'policies/p.policy.json', '--version', '2', '--sample-rate', '2'], 'trial start'],
  [['trial', 'show'], 'trial show'],
  [['trial', 'stop', 'a', 'b'], 'trial stop'],
];

describe('usage errors', () => {
  it.each(USAGE_ERRORS)('%j: exit 2, the reason, the synopsis and the help pointer, never the whole help', async (argv, command) => {
    const run = await runCli(...argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(new RegExp(`^tollgate ${command}[: ]`));
    expect(lines[1]).toMatch(new RegExp(`^usage: tollgate ${command}( |$)`));
    expect(lines[2]).toBe(`run 'tollgate ${command} --help' for more`);
    expect(lines[3]).toBe('');
    expect(run.stderr).not.toContain('Usage:');
  });

  it('an unknown command points at the list of commands', async () => {
    const run = await runCli('frobnicate', 'now');
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: "tollgate: unknown command: frobnicate now\nusage: tollgate COMMAND ...\nrun 'tollgate help' for the commands\n",
    });
  });

  it("--help after a command prints that command's part of the help; help alone prints all of it", async () => {
    for (const [argv, command] of USAGE_ERRORS) {
      const words = command.split(' ');
      const help = await runCli(...words, '--help');
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(new RegExp(`^ {2}tollgate ${command}( |\\n)`));
      expect(help.stdout.length, command).toBeLessThan(USAGE.length / 2);
      expect(argv.length).toBeGreaterThan(0);
    }
    expect((await runCli('help')).stdout).toBe(USAGE);
    expect((await runCli('--help')).stdout).toBe(USAGE);
  });

  it('version and --version alone print the package version; --version after a command is its flag', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const word of ['version', '--version'])
      expect(await runCli(word)).toEqual({ code: 0, stdout: `tollgate ${version}\n`, stderr: '' });
    const run = await runCli('ruleset', 'run', 'x', '--version');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('ruleset run says the verdict is pass or fail (hold is a rule result, not a verdict)', async () => {
    const help = (await runCli('ruleset', 'run', '--help')).stdout;
    expect(help).toContain('the verdict is pass or fail');
    expect(help).not.toContain('one call: pass, hold or fail');
  });

  it('a wrong key is not a usage error: rules compile --server exits 4, mcp says INVALID_KEY', async () => {
    const server = await startServer();
    const saved = { server: process.env.TOLLGATE_KEY, agent: process.env.TOLLGATE_AGENT_KEY };
    try {
      process.env.TOLLGATE_KEY = 'tg_not-a-key';
      process.env.TOLLGATE_AGENT_KEY = server.key('viewer');
      const sheet = workspace().file('s.rules.yaml', 'rules: []\n');
      const compile = await runCli('rules', 'compile', sheet, '--server', server.url);
      expect(compile.code).toBe(4);
      expect(compile.stderr).toContain('401');
      expect(compile.stderr).not.toContain('usage:');
      const mcp = await runCli('mcp', '--agent', 'support-bot', '--data', server.dataDir);
      expect(mcp).toEqual({
        code: 2,
        stdout: '',
        stderr: 'tollgate mcp: INVALID_KEY: TOLLGATE_AGENT_KEY is not a key of agent support-bot\n',
      });
      // A revoked agent key says why it is refused, as the API's 401 does.
      const made = await server.ctx.state.identity.issueKey({ holder: { agent: 'support-bot' }, grants: [] }, { kind: 'operator' });
      if (!('ok' in made)) throw new Error(made.refusal.message);
      await server.ctx.state.identity.revokeKey(made.ok.info.id, { kind: 'operator' });
      process.env.TOLLGATE_AGENT_KEY = made.ok.key;
      const revoked = await runCli('mcp', '--agent', 'support-bot', '--data', server.dataDir);
      expect(revoked.code).toBe(2);
      expect(revoked.stderr).toMatch(
        /^tollgate mcp: INVALID_KEY: TOLLGATE_AGENT_KEY is not a key of agent support-bot \(KEY_REVOKED: the key was revoked at /,
      );
    } finally {
      for (const [name, value] of [
        ['TOLLGATE_KEY', saved.server],
        ['TOLLGATE_AGENT_KEY', saved.agent],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await server.stop();
    }
  });
});
