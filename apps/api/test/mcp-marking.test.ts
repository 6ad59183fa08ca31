// How a call arrived, in the decision log and the approvals (docs/mcp.md, "Calls marked as MCP"): a tools/call
// through /mcp (the SDK's own Client, a recording upstream behind the gateway) reads as via mcp, a call to the
// gate route as via http, and a decision recorded before the column existed as http.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, mapUpstreams, pendingApprovalId, recordedCalls, recordingUpstream } from './mcp-fixture.ts';
import { clearVia, okJson, sqliteDb, startServer, TEST_STATE, type TestServer } from './server-harness.ts';

let s: TestServer;
let record: string;
let client: Client;

beforeAll(async () => {
  s = await startServer();
  const recorder = recordingUpstream(s, 'recorded-marking.jsonl');
  record = recorder.record;
  await mapUpstreams(s, [recorder.upstream], {
    issue_refund: { server: 'recorder', tool: 'refund' },
  });
  client = await connectHttp(s, 'marking-agent');
}, 30_000);

afterAll(async () => {
  await client?.close();
  s?.ctx.events.close();
  await s?.stop();
  delete process.env.RECORD_FILE;
});

const decision = (callId: string) => okJson(s.call('GET', `/v1/decisions/${encodeURIComponent(callId)}`, { key: s.key('viewer') }));
const approval = (id: string) => okJson(s.call('GET', `/v1/approvals/${id}`, { key: s.key('viewer') }));

/** A call to the gate route, as support-bot. */
async function gateCall(amount: string): Promise<{ call_id: string; decision: string; approval?: { id: string } }> {
  return okJson(
    s.call('POST', '/v1/agents/support-bot/calls', { key: s.key('agent'), body: { tool: 'issue_refund', arguments: { amount } } }),
  );
}

describe('calls marked by how they arrived', () => {
  it('records an MCP call via mcp and a gate route call via http, in the list and by id', async () => {
    const result = await client.callTool({ name: 'issue_refund', arguments: { amount: '50', order: 'M-1' } });
    expect(result.isError).toBeFalsy();
    const [newest] = (await okJson(s.call('GET', '/v1/decisions?limit=1', { key: s.key('viewer') }))).decisions;
    expect(newest).toMatchObject({ tool: 'issue_refund', decision: 'allow', via: 'mcp' });
    expect(await decision(newest.call_id)).toMatchObject({ via: 'mcp' });

    const http = await gateCall('50');
    expect(http.decision).toBe('allow');
    expect(await decision(http.call_id)).toMatchObject({ call_id: http.call_id, via: 'http' });
    const listed = (await okJson(s.call('GET', '/v1/decisions?limit=2', { key: s.key('viewer') }))).decisions;
    expect(listed.map((d: { call_id: string; via: string }) => [d.call_id, d.via])).toEqual([
      [http.call_id, 'http'],
      [newest.call_id, 'mcp'],
    ]);
  }, 20_000);

  it('marks a held MCP call and its approval request via mcp, and a held gate route call via http', async () => {
    const before = recordedCalls(record).length;
    const pending = client.callTool({ name: 'issue_refund', arguments: { amount: '500', order: 'M-2' } }, undefined, { timeout: 30_000 });
    const mcpId = await pendingApprovalId(s);
    const held = await approval(mcpId);
    expect(held).toMatchObject({ status: 'pending', tool: 'issue_refund', via: 'mcp' });
    expect(await decision(held.call_id)).toMatchObject({ decision: 'require_approval', via: 'mcp' });

    const http = await gateCall('500');
    expect(http.decision).toBe('require_approval');
    const httpId = http.approval?.id as string;
    expect(await approval(httpId)).toMatchObject({ call_id: http.call_id, via: 'http' });
    const inbox = (await okJson(s.call('GET', '/v1/approvals?status=pending', { key: s.key('approver') }))).approvals;
    expect(inbox.map((a: { id: string; via: string }) => [a.id, a.via])).toEqual([
      [httpId, 'http'],
      [mcpId, 'mcp'],
    ]);

    await okJson(s.call('POST', `/v1/approvals/${httpId}/deny`, { key: s.key('approver'), body: {} }));
    await okJson(s.call('POST', `/v1/approvals/${mcpId}/approve`, { key: s.key('approver'), body: {} }));
    expect((await pending).isError).toBeFalsy();
    expect(recordedCalls(record).slice(before)).toEqual([{ tool: 'refund', arguments: { amount: '500', order: 'M-2' } }]);
    // Decided, the request still says how its call arrived.
    expect(await approval(mcpId)).toMatchObject({ status: 'approved', via: 'mcp' });
  }, 40_000);

  it('reads a decision recorded before the column existed, and its approval request, as via http', async () => {
    const http = await gateCall('500');
    const id = http.approval?.id as string;
    await clearVia(s, http.call_id);
    expect(await decision(http.call_id)).toMatchObject({ via: 'http' });
    expect(await approval(id)).toMatchObject({ via: 'http' });
    await okJson(s.call('POST', `/v1/approvals/${id}/deny`, { key: s.key('approver'), body: {} }));
  });

  // The CHECK of SQLite's schema (state/db.ts) and its error's words: PostgreSQL's schema has its own CHECK.
  it.runIf(TEST_STATE === 'sqlite')('refuses a via the column does not know', () => {
    const db = sqliteDb(s);
    const call = db.prepare("SELECT call_id FROM decisions WHERE via = 'http' LIMIT 1").get() as { call_id: string };
    expect(() => db.prepare("UPDATE decisions SET via = 'smtp' WHERE call_id = ?").run(call.call_id)).toThrow(/CHECK constraint/);
  });
});
