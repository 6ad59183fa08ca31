// docs/quickstart.md runs as printed: its ```sh blocks, in order, in one bash shell, as a reader pastes them into a
// terminal, from a fresh folder that holds what a checkout's root holds for it (examples/, node_modules), with the
// checkout's CLI as `tollgate` first on PATH. A block marked `<!-- quickstart: background -->` runs in a shell of its
// own, as in a second terminal, until the test ends; one marked `not run` (the install) is not run. Each block's
// output (stderr with stdout, as a terminal shows them) must be the output shown under it, `…` standing for what
// differs between runs. The one change made to the text: port 8787 becomes a free port, in commands and outputs.
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesOutput, normaliseOutput, type QuickstartBlock, quickstartBlocks } from './quickstart-blocks.ts';
import { REPO_ROOT } from './server-harness.ts';

const DOC = 'docs/quickstart.md';
const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const DOC_PORT = '8787';
/** How long one block may take: the server's start is the longest, a few seconds. */
const BLOCK_MS = 20_000;

const blocks = quickstartBlocks(readFileSync(join(REPO_ROOT, DOC), 'utf8'));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

const temps: string[] = [];
function tempDir(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `tollgate-quickstart-${name}-`));
  temps.push(dir);
  return dir;
}

let port: string;
let cwd: string;
let scripts: string;
let env: NodeJS.ProcessEnv;
let shell: ChildProcess;
let shellOut = '';
const servers: ChildProcess[] = [];

/** The block's text and output as this run has them: the doc's port replaced by this run's. */
function onPort(text: string): string {
  return text.split(DOC_PORT).join(port);
}

beforeAll(async () => {
  port = String(await freePort());
  // What the reader's checkout root holds for the quickstart: examples/ and an installed node_modules.
  cwd = tempDir('checkout');
  cpSync(join(REPO_ROOT, 'examples'), join(cwd, 'examples'), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(cwd, 'node_modules'));
  // Step 1's PATH: the checkout's CLI as `tollgate`.
  const bin = tempDir('bin');
  symlinkSync(BIN, join(bin, 'tollgate'));
  scripts = tempDir('blocks');
  const home = tempDir('home');
  env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, npm_config_yes: 'false' };
  // A reader's shell has none of the tests' settings (their member key secret, a database): serve makes its own.
  for (const name of Object.keys(env)) if (name.startsWith('TOLLGATE_')) delete env[name];
  shell = spawn('bash', ['--noprofile', '--norc'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  shell.stdout?.on('data', (chunk: Buffer) => {
    shellOut += chunk.toString();
  });
  shell.stderr?.on('data', (chunk: Buffer) => {
    shellOut += chunk.toString();
  });
  // One stream, as a terminal shows stdout and stderr: in the order they were written.
  shell.stdin?.write('exec 2>&1\n');
});

afterAll(async () => {
  shell?.stdin?.end();
  await Promise.all(servers.map(stopServer));
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Ctrl+C in the second terminal: SIGINT to the server's process group, SIGKILL if it has not gone in 10 s. */
function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null || server.pid === undefined) return Promise.resolve();
  const group = -server.pid;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(group, 'SIGKILL');
      } catch {}
    }, 10_000);
    server.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    process.kill(group, 'SIGINT');
  });
}

let ran = 0;
/** Runs a block in the reader's shell, sourced from a file of its exact text; its output and exit status. */
function runInShell(block: QuickstartBlock): Promise<{ out: string; status: number }> {
  const file = join(scripts, `block-${++ran}.sh`);
  writeFileSync(file, onPort(block.text));
  const token = `__quickstart_block_${ran}_done__`;
  const from = shellOut.length;
  // stdin from /dev/null: the shell reads its commands from its own stdin, which a block must not eat.
  shell.stdin?.write(`source '${file}' </dev/null; printf '\\n%s %s\\n' ${token} "$?"\n`);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const done = new RegExp(`\\n${token} (\\d+)\\n`).exec(shellOut.slice(from));
      if (done) {
        clearInterval(poll);
        resolve({ out: shellOut.slice(from, from + done.index), status: Number(done[1]) });
      } else if (Date.now() - started > BLOCK_MS) {
        clearInterval(poll);
        reject(new Error(`no end within ${BLOCK_MS} ms; printed so far:\n${shellOut.slice(from)}`));
      }
    }, 20);
  });
}

/** Runs a block in a shell of its own, as in a second terminal, until it has printed what the doc shows. */
function runInBackground(block: QuickstartBlock): Promise<string> {
  const server = spawn('bash', ['--noprofile', '--norc', '-c', onPort(block.text)], {
    cwd,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  servers.push(server);
  let out = '';
  return new Promise((resolve) => {
    const expected = onPort(block.expected);
    const settle = () => {
      clearTimeout(timer);
      resolve(out);
    };
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      if (matchesOutput(out, expected, true)) settle();
    };
    server.stdout?.on('data', read);
    server.stderr?.on('data', read);
    server.once('exit', settle);
    const timer = setTimeout(settle, BLOCK_MS);
  });
}

/** A mismatch fails showing both texts, so the diff says which line differs. */
function expectOutput(actual: string, expected: string, prefix: boolean): void {
  if (!matchesOutput(actual, expected, prefix)) expect(normaliseOutput(actual)).toBe(normaliseOutput(expected));
}

describe(DOC, () => {
  it('marks the install alone as not run, and one server to run in the background', () => {
    expect(blocks.filter((b) => b.mode === 'not run').map((b) => b.text)).toEqual([expect.stringContaining('npm install')]);
    expect(blocks.filter((b) => b.mode === 'background')).toHaveLength(1);
    // Every block shows what it prints: a reader has something to compare with at each step.
    expect(blocks.filter((b) => b.mode !== 'not run' && b.expected === '').map((b) => b.line)).toEqual([]);
  });

  for (const block of blocks) {
    if (block.mode === 'not run') continue;
    it(
      `${DOC}:${block.line} ${block.mode === 'background' ? '(background) ' : ''}${block.text.split('\n')[0]}`,
      async () => {
        const expected = onPort(block.expected);
        if (block.mode === 'background') {
          expectOutput(await runInBackground(block), expected, true);
          return;
        }
        const { out, status } = await runInShell(block);
        expectOutput(out, expected, false);
        expect(status, out).toBe(0);
      },
      BLOCK_MS + 5_000,
    );
  }
});

describe('comparing an output with the doc', () => {
  const shown = '{"decision":"allow","rule":"refund-auto","call_id":"…"}';
  it('lets `…` stand for any text within a line', () => {
    expect(matchesOutput('{"decision":"allow","rule":"refund-auto","call_id":"0193-ab"}\n', shown)).toBe(true);
  });
  it('finds a change outside a placeholder, a line more, or a placeholder across lines', () => {
    expect(matchesOutput('{"decision":"deny","rule":"refund-auto","call_id":"0193-ab"}', shown)).toBe(false);
    expect(matchesOutput(`${shown}\nmore`, shown)).toBe(false);
    expect(matchesOutput('a\nb\nc', 'a…c')).toBe(false);
    expect(matchesOutput(`${shown}\nmore`, shown, true)).toBe(true);
  });
  it('refuses a mark that does not stand before a sh block', () => {
    expect(() => quickstartBlocks('<!-- quickstart: background -->\n\ntext\n```sh\nx\n```\n')).toThrow(/right before/);
    expect(() => quickstartBlocks('<!-- quickstart: background -->\n```json\n{}\n```\n')).toThrow(/before a json block/);
  });
});
