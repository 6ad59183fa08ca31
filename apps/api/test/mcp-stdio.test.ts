// The MCP gateway over stdio with real parts: the SDK's own Client spawns `tollgate mcp` (the bundled CLI),
// which forwards to a recording upstream (fixtures/recording-upstream.mjs) run as a child process. The
// recording proves a denied or held call never reached the upstream and an approved one reached it once.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cancelWhileHeld, errorOf, mapUpstreams, nodeUpstream, pendingApprovalId, RECORDER, recordedCalls } from './mcp-fixture.ts';
import { agentKey, okJson, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

const BIN = join(REPO_ROOT, 'apps/api/bin/tollgate.cjs');

let s: TestServer;
let record: string;
let client: Client;
let log = '';

const recorded = () => recordedCalls(record);

beforeAll(async () => {
  s = await startServer();
  record = join(s.dataDir, 'recorded.jsonl');
  await mapUpstreams(
    s,
    [
      nodeUpstream('recorder', RECORDER, [], ['RECORD_FILE']),
      nodeUpstream('other', RECORDER),
      { name: 'broken', command: '/nonexistent/upstream' },
    ],
    {
      read_order: { server: 'other', tool: 'read' },
      search_orders: { server: 'broken', tool: 'read' },
      issue_refund: { server: 'recorder', tool: 'refund' },
      send_payout: { server: 'recorder', tool: 'refund' },
    },
  );
  client = new Client({ name: 'test-agent', version: '1' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--agent', 'support-bot', '--data', s.dataDir, '--approval-wait', '20', '--upstream-timeout', '3'],
    env: { PATH: process.env.PATH ?? '', TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot'), RECORD_FILE: record },
    stderr: 'pipe',
  });
  // The gateway's log: stdout carries MCP only.
  transport.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString('utf8');
  });
  await client.connect(transport);
}, 30_000);

afterAll(async () => {
  await client?.close();
  await s?.stop();
});

describe('tollgate mcp over stdio', () => {
  it('lists only catalogue tools mapped to an upstream tool, with the upstream’s schema and description', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['issue_refund', 'read_order', 'send_payout']);
    expect(tools.find((t) => t.name === 'issue_refund')).toMatchObject({
      description: 'Refunds an order.',
      inputSchema: { type: 'object', required: ['amount'] },
    });
  });

  it('forwards an allowed call and returns the upstream’s result as is', async () => {
    const result = await client.callTool({ name: 'issue_refund', arguments: { amount: '50', order: 'A-1' } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'done refund {"amount":"50","order":"A-1"}' }]);
    expect(recorded()).toContainEqual({ tool: 'refund', arguments: { amount: '50', order: 'A-1' } });
  });

  it('answers a denied call with its code and explanation, and never calls the upstream', async () => {
    const before = recorded().length;
    const error = errorOf(await client.callTool({ name: 'issue_refund', arguments: { amount: '5000', order: 'A-2' } }));
    expect(error).toMatchObject({ code: 'DENIED', details: { rule: 'refund-over-limit' } });
    expect(recorded().length).toBe(before);
    const unlisted = errorOf(await client.callTool({ name: 'unlisted', arguments: {} }));
    expect(unlisted.code).toBe('TOOL_NOT_OFFERED');
    expect(recorded().length).toBe(before);
  });

  it('holds a call until a person approves it, sends progress, then claims it once and forwards it once', async () => {
    const before = recorded().length;
    const progress: number[] = [];
    const pending = client.callTool({ name: 'issue_refund', arguments: { amount: '500', order: 'A-3' } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 30_000,
    });
    const approvalId = await pendingApprovalId(s);
    expect(approvalId).toBeDefined();
    await new Promise((r) => setTimeout(r, 1500));
    expect(recorded().length).toBe(before);
    await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: {} }));
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThan(0);
    const after = recorded().slice(before);
    expect(after).toEqual([{ tool: 'refund', arguments: { amount: '500', order: 'A-3' } }]);
    const approval = await s.call('GET', `/v1/approvals/${approvalId}`, { key: s.key('viewer') });
    expect(approval.json.claimed_at).not.toBeNull();
  }, 40_000);

  it('ends a held call a person denies with an error naming the approval; the upstream is never called', async () => {
    const before = recorded().length;
    const pending = client.callTool({ name: 'issue_refund', arguments: { amount: '600', order: 'A-4' } }, undefined, { timeout: 30_000 });
    const approvalId = await pendingApprovalId(s);
    await okJson(s.call('POST', `/v1/approvals/${approvalId}/deny`, { key: s.key('approver'), body: { reason: 'no' } }));
    const error = errorOf(await pending);
    expect(error.code).toBe('APPROVAL_DENIED');
    expect(error.message).toContain(approvalId);
    expect(recorded().length).toBe(before);
  }, 40_000);

  it('answers an upstream that cannot start or is too slow with a coded error, and a slow one holds no other', async () => {
    const slow = client.callTool({ name: 'issue_refund', arguments: { amount: '50', slow: 'yes' } }, undefined, { timeout: 20_000 });
    const started = Date.now();
    const quick = await client.callTool({ name: 'read_order', arguments: { id: 'o-1' } });
    expect(quick.content).toEqual([{ type: 'text', text: 'done read {"id":"o-1"}' }]);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(errorOf(await slow).code).toBe('UPSTREAM_TIMEOUT');
    // Logged with the call and the code, never the arguments' values.
    const slowCall = errorOf(await slow).details.call_id;
    await expect.poll(() => log).toContain(`call ${slowCall}`);
    const line = log.split('\n').find((l) => l.includes(`call ${slowCall}`)) as string;
    expect(line).toMatch(/UPSTREAM_TIMEOUT/);
    expect(line).toContain('issue_refund');
    expect(line).not.toContain('yes');
    // search_orders maps to a server whose command does not exist: not offered, and not a crash; a call of it
    // says what happened to its upstream.
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('search_orders');
    const broken = errorOf(await client.callTool({ name: 'search_orders', arguments: {} }));
    expect(broken.code).toBe('UPSTREAM_UNAVAILABLE');
    expect(broken.message).toContain('broken');
    expect((await client.callTool({ name: 'read_order', arguments: { id: 'o-2' } })).isError).toBeFalsy();
  }, 30_000);

  it('refuses a message the exact reader refuses (a member named twice) before anything decides it', async () => {
    const child = spawn(process.execPath, [BIN, 'mcp', '--agent', 'support-bot', '--data', s.dataDir], {
      env: { PATH: process.env.PATH ?? '', TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot') },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const line = new Promise<string>((resolve) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
      });
    });
    const before = recorded().length;
    child.stdin.write(
      '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"issue_refund","arguments":{"amount":"50","amount":"5000"}}}\n',
    );
    const answer = JSON.parse(await line);
    child.kill();
    // The id was read whole, so the parse error answers it (docs/mcp.md, "One read per message").
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32700 } });
    expect(answer.error.message).toContain('DUPLICATE_MEMBER');
    expect(recorded().length).toBe(before);
  }, 20_000);

  it('ends a held call with APPROVAL_WAIT_ENDED, naming the approval, once the bounded wait is over', async () => {
    const short = new Client({ name: 'impatient-agent', version: '1' });
    await short.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--agent', 'support-bot', '--data', s.dataDir, '--approval-wait', '1'],
        env: { PATH: process.env.PATH ?? '', TOLLGATE_AGENT_KEY: agentKey(s, 'support-bot'), RECORD_FILE: record },
        stderr: 'ignore',
      }),
    );
    try {
      const before = recorded().length;
      const error = errorOf(await short.callTool({ name: 'issue_refund', arguments: { amount: '700', order: 'A-5' } }));
      expect(error.code).toBe('APPROVAL_WAIT_ENDED');
      expect(error.message).toContain(error.details.approval.id);
      expect(recorded().length).toBe(before);
      const approval = await s.call('GET', `/v1/approvals/${error.details.approval.id}`, { key: s.key('viewer') });
      expect(approval.json.status).toBe('pending');
    } finally {
      await short.close();
    }
  }, 30_000);

  it('never forwards a held call the client cancels; its approval request stays pending', async () => {
    const before = recorded().length;
    const approvalId = await cancelWhileHeld(s, client, { amount: '700', order: 'A-9' });
    expect((await okJson(s.call('GET', `/v1/approvals/${approvalId}`, { key: s.key('viewer') }))).status).toBe('pending');
    // Approved afterwards, it is forwarded by no one: the gateway stopped waiting when the client cancelled.
    await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: {} }));
    await new Promise((r) => setTimeout(r, 600));
    expect(recorded().length).toBe(before);
  }, 30_000);
});
