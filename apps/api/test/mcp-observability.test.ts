// The MCP gateway's metrics and spans over Streamable HTTP (observability/, docs/deploy.md "Metrics and traces"):
// an open session counted, calls decided `via` mcp, a held call's wait and claim, and upstream calls by outcome;
// the /mcp request's `traceparent` continued by the call's spans (decide, wait, upstream), which name the call
// id and never an argument value.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapUpstreams, pendingApprovalId, recordingUpstream } from './mcp-fixture.ts';
import { okJson, startServer, type TestServer } from './server-harness.ts';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let s: TestServer;
let client: Client;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  s = await startServer();
  const recorder = recordingUpstream(s, 'recorded-observability.jsonl');
  await mapUpstreams(s, [recorder.upstream], { issue_refund: { server: 'recorder', tool: 'refund' } });
  client = new Client({ name: 'observability', version: '1' });
  const headers = { authorization: `Bearer ${s.key('agent')}`, traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers } }));
}, 30_000);

afterAll(async () => {
  await client?.close();
  s?.ctx.events.close();
  await s?.stop();
  delete process.env.RECORD_FILE;
  await provider.shutdown();
  trace.disable();
  context.disable();
});

async function metrics(): Promise<string> {
  const r = await s.call('GET', '/metrics', { key: s.key('admin') });
  expect(r.status).toBe(200);
  return r.text;
}
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

describe('the MCP gateway observed', () => {
  it('counts the session, the calls via mcp, the held wait, the claim and the upstream calls', async () => {
    const before = await metrics();
    expect(sample(before, 'tollgate_mcp_sessions')).toBe(1);
    const allowed = await client.callTool({ name: 'issue_refund', arguments: { amount: '50', order: 'OBS-SECRET-1' } });
    expect(allowed.isError).toBeFalsy();
    const pending = client.callTool({ name: 'issue_refund', arguments: { amount: '500', order: 'OBS-SECRET-2' } }, undefined, {
      timeout: 30_000,
    });
    const approvalId = await pendingApprovalId(s);
    await okJson(s.call('POST', `/v1/approvals/${approvalId}/approve`, { key: s.key('approver'), body: {} }));
    expect((await pending).isError).toBeFalsy();

    const after = await metrics();
    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('tollgate_decisions_total{outcome="allow",code="none",via="mcp"}')).toBe(1);
    expect(moved('tollgate_gate_duration_seconds_count{via="mcp"}')).toBe(2);
    expect(moved('tollgate_held_waits_total{outcome="approved"}')).toBe(1);
    expect(moved('tollgate_held_wait_duration_seconds_count')).toBe(1);
    expect(moved('tollgate_claims_total{outcome="claimed"}')).toBe(1);
    expect(moved('tollgate_upstream_calls_total{outcome="ok"}')).toBe(2);
    expect(moved('tollgate_upstream_call_duration_seconds_count')).toBe(2);
    expect(after).not.toContain('OBS-SECRET');

    const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === TRACE_ID);
    const names = spans.map((span) => span.name);
    expect(names.filter((n) => n === 'tollgate.gate.decide').length).toBeGreaterThanOrEqual(2);
    expect(names).toContain('tollgate.held_wait');
    expect(names.filter((n) => n === 'tollgate.upstream_call').length).toBe(2);
    const wait = spans.find((span) => span.name === 'tollgate.held_wait');
    expect(wait?.attributes).toMatchObject({ 'tollgate.outcome': 'approved' });
    const heldDecide = spans.find(
      (span) => span.name === 'tollgate.gate.decide' && span.attributes['tollgate.outcome'] === 'require_approval',
    );
    expect(heldDecide?.attributes).toMatchObject({ 'tollgate.via': 'mcp', 'tollgate.call_id': wait?.attributes['tollgate.call_id'] });
    for (const span of exporter.getFinishedSpans()) expect(JSON.stringify(span.attributes)).not.toContain('OBS-SECRET');
  }, 40_000);
});
