// A quorum through the MCP gateway at /mcp (docs/policy.md, "Approvers"): a call held for 2 approvals waits through
// the first, and is forwarded exactly once after the second, by another member.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, mapUpstreams, pendingApprovalId, recordedCalls, recordingUpstream } from './mcp-fixture.ts';
import { okJson, postEdit, REPO_ROOT, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
let record: string;
let client: Client;

beforeAll(async () => {
  s = await startServer();
  const recorder = recordingUpstream(s, 'recorded-quorum.jsonl');
  record = recorder.record;
  await mapUpstreams(s, [recorder.upstream], { issue_refund: { server: 'recorder', tool: 'refund' } });
  const refunds = JSON.parse(readFileSync(join(REPO_ROOT, 'examples/refunds.policy.json'), 'utf8'));
  for (const rule of refunds.rules) if (rule.id === 'refund-approval') rule.approvers.quorum = 2;
  const edit = await postEdit(s, 'policies/refunds.policy.json', s.key('owner'), {
    content: `${JSON.stringify(refunds, null, 2)}\n`,
    reason: 'test: quorum',
  });
  expect(edit.status, edit.text).toBe(201);
  client = await connectHttp(s, 'test-agent');
}, 30_000);

afterAll(async () => {
  await client?.close();
  s?.ctx.events.close();
  await s?.stop();
  delete process.env.RECORD_FILE;
});

describe('a quorum through /mcp', () => {
  it('waits through the first approval and forwards the call once after the second', async () => {
    const before = recordedCalls(record).length;
    const pending = client.callTool({ name: 'issue_refund', arguments: { amount: '500', order: 'Q-1' } }, undefined, { timeout: 30_000 });
    const approvalId = await pendingApprovalId(s);
    const first = await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: {} }));
    expect(first).toMatchObject({ status: 'pending', approvals_still_needed: 1 });
    await new Promise((r) => setTimeout(r, 300));
    expect(recordedCalls(record).length).toBe(before);
    await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('admin'), body: {} }));
    const result = await pending;
    expect(result.isError).toBeFalsy();
    expect(recordedCalls(record).slice(before)).toEqual([{ tool: 'refund', arguments: { amount: '500', order: 'Q-1' } }]);
  }, 40_000);
});
