// Shared parts of the store's tests: real temp folders that are removed after each test, a listing of
// everything under a folder (to show that a refusal wrote nothing), and child processes run with tsx.
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { Author } from '../src/types.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

export const ANA: Author = { kind: 'person', label: 'ana' };
export const DEV: Author = { kind: 'developer', label: 'dev' };
export const ASSISTANT: Author = { kind: 'model', label: 'assistant' };

export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Registers cleanup for the calling test file: every folder made by tempDir and every closer runs after each test. */
export function useTempDirs(): { tempDir: (prefix?: string) => string; onCleanup: (fn: () => unknown) => void } {
  const dirs: string[] = [];
  const closers: (() => unknown)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    tempDir: (prefix = 'tollgate-store-') => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    onCleanup: (fn) => {
      closers.push(fn);
    },
  };
}

/**
 * Every entry under `dir`: its kind, a file's size, content digest and modification time, a link's target.
 * A folder's own time is left out: taking and dropping the lock touches the state folder.
 */
export function listTree(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at).sort()) {
      const path = join(at, entry);
      const rel = relative(dir, path);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) out.push(`link ${rel} -> ${readlinkSync(path)}`);
      else if (stat.isDirectory()) {
        out.push(`dir ${rel}`);
        walk(path);
      } else out.push(`file ${rel} ${stat.size} ${sha256(readFileSync(path))} ${stat.mtimeMs}`);
    }
  };
  walk(dir);
  return out;
}

/** Polls until `check` gives a value, or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Runs a fixture script with tsx from the repo root, where `tsx` resolves. */
export function spawnFixture(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(FIXTURES, script), ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Lines a child prints, as they come; `next()` waits for the next one (undefined once the child is gone). */
export class LineReader {
  readonly lines: string[] = [];
  stderr = '';
  private buffer = '';
  private read = 0;
  private ended = false;
  private waiters: (() => void)[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(child: ChildProcess) {
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      this.buffer += chunk;
      const parts = this.buffer.split('\n');
      this.buffer = parts.pop() ?? '';
      this.lines.push(...parts);
      this.wake();
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => {
      child.on('close', (code, signal) => {
        this.ended = true;
        this.wake();
        resolve({ code, signal });
      });
    });
  }

  async next(timeoutMs = 15_000): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.lines.length) {
      if (this.ended) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no line from the child within ${timeoutMs} ms; stderr: ${this.stderr}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.lines[this.read++];
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }
}

/** A small seeded generator (mulberry32), so a failing run can be repeated from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
