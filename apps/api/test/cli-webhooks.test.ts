// tollgate webhooks add|list|remove (docs/cli.md, docs/webhooks.md): the operator's subscriptions on a data folder,
// the secret printed once and never listed, the URL checked as the API checks it, an unknown id NOT_FOUND.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, withEnv, workspace } from './cli-harness.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function dataDir(): string {
  const { dir } = workspace();
  dirs.push(dir);
  return dir;
}

describe('tollgate webhooks', () => {
  it('adds a subscription with its secret shown once, lists it without the secret, and removes it', async () => {
    const data = dataDir();
    const added = await runCli(
      'webhooks',
      'add',
      'https://93.184.216.34/hook',
      '--event',
      'approval.pending',
      '--event',
      'approval.approved',
      '--event',
      'decision.denied',
      '--for-agent',
      'support-bot',
      '--for-tool',
      'issue_refund',
      '--for-agent',
      'billing-bot',
      '--format',
      'slack',
      '--data',
      data,
      '--json',
    );
    expect(added.code).toBe(0);
    const made = JSON.parse(added.stdout);
    expect(made).toMatchObject({
      url: 'https://93.184.216.34/hook',
      events: ['approval.pending', 'approval.approved', 'decision.denied'],
      format: 'slack',
      filters: { agents: ['support-bot', 'billing-bot'], tools: ['issue_refund'] },
    });
    expect(made.secret).toMatch(/^whsec_/);
    const listed = await runCli('webhooks', 'list', '--data', data, '--json');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        id: made.id,
        created_by: 'operator',
        include_arguments: false,
        filters: { agents: ['support-bot', 'billing-bot'], tools: ['issue_refund'] },
      }),
    ]);
    expect(listed.stdout).not.toContain(made.secret);
    expect((await runCli('webhooks', 'remove', made.id, '--data', data)).code).toBe(0);
    expect(JSON.parse((await runCli('webhooks', 'list', '--data', data, '--json')).stdout)).toEqual([]);
    const again = await runCli('webhooks', 'remove', made.id, '--data', data);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('NOT_FOUND');
  });

  it('refuses a loopback or http URL unless the operator allows it, and an unknown event as usage', async () => {
    const data = dataDir();
    for (const url of ['https://127.0.0.1/hook', 'https://localhost/hook', 'http://93.184.216.34/hook']) {
      const r = await runCli('webhooks', 'add', url, '--event', 'approval.pending', '--data', data);
      expect([r.code, r.stderr.includes('WEBHOOK_URL_REFUSED')]).toEqual([1, true]);
    }
    const allowed = await withEnv('TOLLGATE_WEBHOOKS_ALLOW_HTTP', '1', () =>
      withEnv('TOLLGATE_WEBHOOKS_ALLOW_PRIVATE', '1', () =>
        runCli('webhooks', 'add', 'http://127.0.0.1:9/hook', '--event', 'approval.denied', '--data', data),
      ),
    );
    expect(allowed.code).toBe(0);
    const bad = await runCli('webhooks', 'add', 'https://93.184.216.34/hook', '--event', 'approval.nope', '--data', data);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--event is one of');
  });
});
