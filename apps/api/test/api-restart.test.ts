// A restart: a child `tollgate serve` records a held call and its approval, is killed with SIGKILL, and a
// new one on the same folder still has the decision, the approved request with its signature, and the
// document versions.
import type { ChildProcess } from 'node:child_process';
import { verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DemoKeys } from '../src/server/demo.ts';
import { openContext } from '../src/server/sqlite-context.ts';
import { spawnServer } from './server-harness.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-restart-'));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(url: string, method: string, path: string, key: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the test reads answers loosely and asserts on them
  return { status: res.status, json: (await res.json()) as any };
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('a restart after SIGKILL', () => {
  it('keeps decisions, approvals with their signatures, and document versions', async () => {
    const first = await spawnServer(dataDir);
    children.push(first.child);
    first.child.removeAllListeners('exit');
    const keys = JSON.parse(readFileSync(join(dataDir, 'demo-keys.json'), 'utf8')) as DemoKeys;
    const agent = (keys.agents[0] as { key: string }).key;
    const approver = keys.members.find((m) => m.role === 'approver') as DemoKeys['members'][number];

    const held = await call(first.url, 'POST', '/v1/agents/support-bot/calls', agent, {
      tool: 'issue_refund',
      arguments: { amount: '500' },
    });
    expect(held.json.decision).toBe('require_approval');
    const id = held.json.approval.id as string;
    const approved = await call(first.url, 'POST', `/v1/approvals/${id}/approve`, approver.key, { reason: 'ok' });
    expect(approved.status).toBe(200);
    await killed(first.child);

    const second = await spawnServer(dataDir);
    children.push(second.child);
    second.child.removeAllListeners('exit');
    const after = await call(second.url, 'GET', `/v1/approvals/${id}`, approver.key);
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({
      status: 'approved',
      call_id: held.json.call_id,
      decided_by: approver.id,
      signature: approved.json.signature,
      signed_content: approved.json.signed_content,
      arguments: { amount: '500' },
    });
    const pk = await call(second.url, 'GET', `/v1/members/${approver.id}/public-key`, approver.key);
    expect(verify(null, Buffer.from(after.json.signed_content), pk.json.public_key, Buffer.from(after.json.signature, 'base64'))).toBe(
      true,
    );
    // The same keys still work (nothing seeded twice), and the approved call can be claimed once.
    const claim = await call(second.url, 'POST', `/v1/approvals/${id}/claim`, agent, { arguments: { amount: '500' } });
    expect(claim.status).toBe(200);
    await killed(second.child);

    const ctx = await openContext(dataDir, { watch: false });
    try {
      const decision = (await ctx.state.findDecision(held.json.call_id)) as { versions: string };
      expect(decision).toMatchObject({ agent: 'support-bot', tool: 'issue_refund', decision: 'require_approval', rule: 'refund-approval' });
      const versions = JSON.parse(decision.versions as string) as Record<string, number>;
      for (const [doc, sequence] of Object.entries(versions)) {
        expect((await ctx.store.getVersion(doc, sequence))?.text, doc).toBeTruthy();
      }
      expect((await ctx.store.history('policies/refunds.policy.json')).length).toBe(1);
      expect(await ctx.state.countMembers()).toBe(keys.members.length);
    } finally {
      await ctx.close();
    }
  });
});
