// Every command of the ```sh blocks of README.md and docs/cli.md runs as printed, as real processes, from a
// working copy of the repository root (examples/ copied, node_modules linked, and the demo data folder that
// `npm start` makes), and exits as the docs say: 0, or N where the line ends in `# exit N` (CONTRIBUTING.md,
// "Commands in the docs"). Each command gets a copy of its own, so none sees what another wrote.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_DOCUMENTS } from '../src/server/demo.ts';
import { REPO_ROOT } from './server-harness.ts';

const DOCS = ['README.md', 'docs/cli.md'];
const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const TIMEOUT_MS = 60_000;
/** How many commands run at once: the machine is shared, and each is a Node process or two. */
const AT_ONCE = 3;

/** Lines that are not run here, each with the reason; every one must still be in the docs. */
const NOT_RUN: Record<string, string> = {
  'npm install && npm start':
    'the working copy is made from what npm install left; npm start serves from the repository root itself ' +
    '(scripts/start.mjs), so the test runs what it runs, `tollgate serve --data .tollgate-data --demo`, in the copy',
  'npm test': 'it runs this test',
  'npm run pack': 'pack-install.test.ts runs it (scripts/pack.mjs), from the repository root it needs',
  'npm install -g --allow-scripts=better-sqlite3 ./tollgate-0.1.0.tgz':
    "pack-install.test.ts installs the tarball it packed into a prefix of its own; as printed it would change the machine's global packages",
  'npm run test:fast': 'a vitest run inside this vitest run; npm test runs the same files',
};

interface DocCommand {
  where: string;
  text: string;
  exit: number;
}

/** The commands of a markdown file's ```sh blocks: comment-only lines skipped, `\` continuations joined. */
function docCommands(file: string): DocCommand[] {
  const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
  const out: DocCommand[] = [];
  let inSh = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^```/.test(line)) {
      inSh = !inSh && line.trim() === '```sh';
      continue;
    }
    if (!inSh || /^\s*(#|$)/.test(line)) continue;
    const start = i + 1;
    let text = line;
    while (text.endsWith('\\') && i + 1 < lines.length) text = `${text.slice(0, -1)} ${lines[++i]?.trim()}`;
    const exit = /\s#\s*exit (\d+)\b/.exec(text);
    out.push({ where: `${file}:${start}`, text: text.replace(/\s+#.*$/, '').trim(), exit: exit ? Number(exit[1]) : 0 });
  }
  return out;
}

const commands = DOCS.flatMap(docCommands);

const temps: string[] = [];
const children = new Set<ChildProcess>();
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-docs-'));
  temps.push(dir);
  return dir;
}

/** A working copy as a fresh clone has it after `npm install`: examples/ and node_modules. */
function workingCopy(from?: string): string {
  const dir = tempDir();
  if (from) cpSync(from, dir, { recursive: true, filter: (src) => relative(from, src) !== 'node_modules' });
  else cpSync(join(REPO_ROOT, 'examples'), join(dir, 'examples'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

interface Run {
  code: number | null;
  out: string;
}

function start(cwd: string, file: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, npm_config_yes: 'false' };
  // The commands name their data folder; a database in the environment would move them off it.
  delete childEnv.TOLLGATE_DATABASE_URL;
  const child = spawn(file, args, { cwd, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** Collects a child's output until it exits (killed after the timeout, so a hang fails the test). */
function finished(child: ChildProcess, onOut: (out: string) => void = () => {}): Promise<Run> {
  return new Promise((resolve) => {
    let out = '';
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      onOut(out);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** `VAR=value ... npx tollgate ARGS`: the environment and the CLI's arguments (no quoting in these lines). */
function tollgateArgs(text: string): { env: Record<string, string>; args: string[] } {
  const parsed = parseTollgate(text);
  if (!parsed) throw new Error(`not a tollgate command: ${text}`);
  return parsed;
}

function parseTollgate(text: string): { env: Record<string, string>; args: string[] } | undefined {
  const words = text.split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0] ?? '')) {
    const [name, value] = (words.shift() as string).split(/=(.*)/s) as [string, string];
    env[name] = value;
  }
  if (words[0] === 'npx') words.shift();
  if (words.shift() !== 'tollgate') return undefined;
  return { env, args: words };
}

/** The demo's key for a `...` placeholder: TOLLGATE_AGENT_KEY of the `--agent` the line names. */
function fillPlaceholders(cwd: string, env: Record<string, string>, args: string[]): Record<string, string> {
  const keys = JSON.parse(readFileSync(join(cwd, '.tollgate-data/demo-keys.json'), 'utf8')) as {
    agents: { name: string; key: string }[];
  };
  const filled = { ...env };
  for (const [name, value] of Object.entries(env)) {
    if (value !== '...') continue;
    const agent = args[args.indexOf('--agent') + 1];
    const key = keys.agents.find((a) => a.name === agent)?.key;
    if (name !== 'TOLLGATE_AGENT_KEY' || !key) throw new Error(`no value for ${name}=... (agent ${agent})`);
    filled[name] = key;
  }
  return filled;
}

/** `serve` runs until stopped: it is started on a free port, asked for its API, and stopped as a person would. */
async function runServe(cwd: string, text: string): Promise<Run> {
  const { env, args } = tollgateArgs(text);
  const port = args.indexOf('--port');
  if (port >= 0) args[port + 1] = '0';
  const child = start(cwd, process.execPath, [BIN, ...args], env);
  let asked = false;
  return finished(child, (out) => {
    const url = /serving the console and API at (http:\/\/[^/\s]+)\//.exec(out)?.[1];
    if (!url || asked) return;
    asked = true;
    fetch(`${url}/v1/openapi.json`)
      .then((res) => {
        if (res.status !== 200) throw new Error(`GET /v1/openapi.json answered ${res.status}`);
        child.kill('SIGTERM');
      })
      .catch(() => child.kill('SIGKILL'));
  });
}

/** The stdio gateway: one MCP initialize, its answer, then stdin closed, as a client that is done. */
async function runStdioGateway(cwd: string, text: string): Promise<Run> {
  const { env, args } = tollgateArgs(text);
  const child = start(cwd, process.execPath, [BIN, ...args], fillPlaceholders(cwd, env, args));
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'docs-commands', version: '1' } },
  };
  child.stdin?.write(`${JSON.stringify(initialize)}\n`);
  let answered = false;
  return finished(child, (out) => {
    if (answered || !/"id":1,"result"|"result":.*"id":1/.test(out)) return;
    answered = true;
    child.stdin?.end();
  });
}

/** Any other line, through the shell exactly as printed. */
function runAsPrinted(cwd: string, text: string): Promise<Run> {
  const child = start(cwd, 'sh', ['-c', text]);
  child.stdin?.end();
  return finished(child);
}

function run(cwd: string, text: string): Promise<Run> {
  const args = parseTollgate(text)?.args ?? [];
  if (args[0] === 'serve') return runServe(cwd, text);
  if (args[0] === 'mcp' && args[1] !== 'import') return runStdioGateway(cwd, text);
  return runAsPrinted(cwd, text);
}

let slots = AT_ONCE;
const waiting: (() => void)[] = [];
async function limited<T>(task: () => Promise<T>): Promise<T> {
  if (slots === 0) await new Promise<void>((go) => waiting.push(go));
  else slots--;
  try {
    return await task();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else slots++;
  }
}

let seeded: string;

beforeAll(async () => {
  seeded = workingCopy();
  const seeding = await runServe(seeded, 'npx tollgate serve --data .tollgate-data --demo --port 0');
  if (seeding.code !== 0) throw new Error(`the demo data folder could not be made: ${seeding.out}`);
}, TIMEOUT_MS);

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('the commands in the docs', () => {
  it('are read from every file, and every line not run is still there', () => {
    for (const file of DOCS)
      expect(
        commands.some((c) => c.where.startsWith(`${file}:`)),
        file,
      ).toBe(true);
    for (const text of Object.keys(NOT_RUN)) expect(commands.map((c) => c.text)).toContain(text);
  });

  const runnable = commands.filter((c) => !(c.text in NOT_RUN));
  it.concurrent.each(runnable.map((c) => [`${c.where}: ${c.text}`, c] as const))(
    '%s',
    async (_, command) => {
      const result = await limited(() => run(workingCopy(seeded), command.text));
      expect({ exit: result.code, out: result.out }).toMatchObject({ exit: command.exit });
      // Bad input or not, no command prints a stack trace (docs/cli.md).
      expect(result.out).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    },
    TIMEOUT_MS * 2,
  );
});

describe('examples/documents', () => {
  it('is the demo workspace as a documents folder, file for file', () => {
    const dir = join(REPO_ROOT, 'examples/documents');
    const files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name)).split('\\').join('/'))
      .sort();
    expect(files).toEqual(Object.keys(DEMO_DOCUMENTS).sort());
    // JSON as the formatter lays it out (biome), so compared as values; every other text exactly.
    const read = (id: string, text: string) => (id.endsWith('.json') ? JSON.parse(text) : text);
    for (const id of files) expect(read(id, readFileSync(join(dir, id), 'utf8')), id).toEqual(read(id, DEMO_DOCUMENTS[id] as string));
  });
});
