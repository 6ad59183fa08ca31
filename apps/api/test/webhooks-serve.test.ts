// `tollgate serve` delivers webhooks (docs/webhooks.md, docs/cli.md): a real serve process with
// --webhooks-allow-http and --webhooks-allow-private posts a held call's approval.pending to a receiver on loopback,
// signed, within seconds, off the request path; SIGTERM stops it cleanly; a bad switch in the environment is USAGE.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { agentKey, REPO_ROOT, readDemoKeys, serverAt, spawnServer } from './server-harness.ts';
import { WebhookReceiver } from './webhook-receiver.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('tollgate serve and webhooks', () => {
  it('delivers a held call to a subscribed receiver, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-webhooks-serve-'));
    dirs.push(dataDir);
    const receiver = await new WebhookReceiver().start();
    const { url, child } = await spawnServer(dataDir, ['--webhooks-allow-http', '--webhooks-allow-private']);
    try {
      const server = serverAt(url, readDemoKeys(dataDir));
      const made = await server.call('POST', '/v1/webhooks', {
        key: server.key('owner'),
        body: { url: `${receiver.url}/serve`, events: ['approval.pending'] },
      });
      expect(made.status).toBe(201);
      const held = await server.call('POST', '/v1/agents/support-bot/calls', {
        key: agentKey(server, 'support-bot'),
        body: { tool: 'issue_refund', arguments: { amount: '500', order: 'S-1' } },
      });
      expect(held.json.decision).toBe('require_approval');
      for (let i = 0; i < 100 && receiver.at('/serve').length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      const [got] = receiver.at('/serve');
      expect(got).toBeDefined();
      const body = new Webhook(made.json.secret).verify(got?.body as string, got?.headers as Record<string, string>) as {
        type: string;
        data: { approval_id: string };
      };
      expect(body).toMatchObject({ type: 'approval.pending', data: { approval_id: held.json.approval.id } });
    } finally {
      const exited = new Promise<number | null>((done) => child.on('exit', done));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await receiver.stop();
    }
  });

  it('refuses a switch in the environment that is not 1, 0 or empty (USAGE, exit 2)', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-webhooks-serve-'));
    dirs.push(dataDir);
    const run = spawnSync(process.execPath, [join(REPO_ROOT, 'apps/api/bin/tollgate.cjs'), 'serve', '--data', dataDir, '--port', '0'], {
      env: { ...process.env, TOLLGATE_WEBHOOKS_ALLOW_PRIVATE: 'yes' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('TOLLGATE_WEBHOOKS_ALLOW_PRIVATE is 1 or 0');
  });
});
