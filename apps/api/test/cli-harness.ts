// Runs the CLI in-process with captured output, and writes fixture files into a fresh temp folder.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli/main.ts';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(...argv: string[]): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

/** A fresh folder; `file(name, content)` writes JSON (objects) or text (strings) and returns the path. */
export function workspace(): { dir: string; file(name: string, content: unknown): string } {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-cli-'));
  return {
    dir,
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
      return path;
    },
  };
}

/** The complete reference example (examples/refunds.policy.json). */
export const REFUNDS = JSON.parse(readFileSync(new URL('../../../examples/refunds.policy.json', import.meta.url), 'utf8'));

export const REFUND_TOOL = { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } };

export const APPROVER = '8f14e45f-ceea-467a-9575-3c8ff9a3e1d0';
export const DEVELOPER = 'c9f0f895-fb98-4b91-9f4d-0e3a4c1f2b7a';

/** Runs `work` with the environment variable `name` set to `value`, restoring it after (runCli's children inherit it). */
export async function withEnv<T>(name: string, value: string, work: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  process.env[name] = value;
  try {
    return await work();
  } finally {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  }
}
