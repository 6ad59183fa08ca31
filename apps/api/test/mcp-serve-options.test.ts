// `tollgate serve --mcp-approval-wait` and `--mcp-upstream-timeout` (docs/mcp.md, docs/cli.md): the bounds of /mcp
// as `tollgate mcp` takes them, checked on a served data folder with the recording upstream mapped.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { errorOf, mapUpstreams, nodeUpstream, RECORDER, recordedCalls } from './mcp-fixture.ts';
import { agentKey, REPO_ROOT, spawnServer, startServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');
const folders: string[] = [];

afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

function run(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })));
}

describe('tollgate serve --mcp-approval-wait, --mcp-upstream-timeout', () => {
  it('refuses a value that is not a whole number of seconds from 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-serve-opts-'));
    folders.push(dir);
    const wait = await run('serve', '--data', dir, '--port', '0', '--mcp-approval-wait', '0');
    expect(wait.code).toBe(2);
    expect(wait.stderr).toContain('--mcp-approval-wait is a whole number of seconds from 1, got 0');
    const timeout = await run('serve', '--data', dir, '--port', '0', '--mcp-upstream-timeout', '1.5');
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('--mcp-upstream-timeout is a whole number of seconds from 1, got 1.5');
  }, 30_000);

  it('ends a held call at /mcp after --mcp-approval-wait seconds', async () => {
    // The folder is seeded and mapped by an in-process server, then served by the CLI with the option.
    const seeded = await startServer({ dataDir: mkdtempSync(join(tmpdir(), 'tollgate-serve-opts-')) });
    folders.push(seeded.dataDir);
    const record = join(seeded.dataDir, 'recorded.jsonl');
    await mapUpstreams(seeded, [nodeUpstream('recorder', RECORDER, [record])], { issue_refund: { server: 'recorder', tool: 'refund' } });
    const key = agentKey(seeded, 'support-bot');
    seeded.ctx.events.close();
    await seeded.stop();
    const served = await spawnServer(seeded.dataDir, ['--mcp-approval-wait', '1']);
    const client = new Client({ name: 'test-agent', version: '1' });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
      );
      const started = Date.now();
      const error = errorOf(await client.callTool({ name: 'issue_refund', arguments: { amount: '500', order: 'W-1' } }));
      expect(error.code).toBe('APPROVAL_WAIT_ENDED');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(recordedCalls(record)).toEqual([]);
    } finally {
      await client.close();
      served.child.kill('SIGTERM');
      await new Promise((r) => served.child.once('exit', r));
    }
  }, 60_000);
});
