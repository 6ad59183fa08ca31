// OpenTelemetry spans over real HTTP (observability/tracing.ts, docs/deploy.md "Metrics and traces"): with a
// tracer provider registered (here an in-memory exporter, as `tollgate serve` registers an OTLP one), a gate call
// sent with a W3C `traceparent` gets a span in that trace, child of the caller's span, naming the call id, the
// agent, the tool, the outcome and the code, and no argument value in any attribute.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './server-harness.ts';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let s: TestServer;
beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
  await provider.shutdown();
  trace.disable();
  context.disable();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';

describe('gate spans', () => {
  it("continues the caller's traceparent with the call id, agent, tool, outcome and code, never the arguments", async () => {
    exporter.reset();
    const handedOn = s.appRequests();
    const r = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'vendor=opaque' },
      body: { tool: 'launch_rocket', arguments: { amount: '5000', order: 'SECRET-ORDER-981' } },
    });
    expect(r.json).toMatchObject({ decision: 'deny', code: 'TOOL_UNKNOWN' });
    // Answered by the gate's direct lane (gate/direct-lane.ts), tracing on or not: the app never saw it.
    expect(s.appRequests()).toBe(handedOn);
    const spans = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === TRACE_ID);
    expect(spans.map((span) => span.name)).toEqual(['tollgate.gate.decide']);
    const [span] = spans;
    expect(span?.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span?.spanContext().traceState?.get('vendor')).toBe('opaque');
    expect(span?.attributes).toMatchObject({
      'tollgate.call_id': r.json.call_id,
      'tollgate.agent': 'support-bot',
      'tollgate.tool': 'launch_rocket',
      'tollgate.via': 'http',
      'tollgate.outcome': 'deny',
      'tollgate.code': 'TOOL_UNKNOWN',
    });
    for (const recorded of exporter.getFinishedSpans()) {
      expect(JSON.stringify(recorded.attributes)).not.toMatch(/SECRET-ORDER-981|5000/);
    }
  });

  it("continues a caller's trace the same whether the lane or the app answers the call", async () => {
    // An escape in the path hands the call to the app (the lane decodes none), which reads the same headers.
    exporter.reset();
    const handedOn = s.appRequests();
    const r = await s.call('POST', '/v1/agents/support%2Dbot/calls', {
      key: s.key('agent'),
      headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
      body: { tool: 'issue_refund', arguments: { amount: '50' } },
    });
    expect(s.appRequests()).toBe(handedOn + 1);
    expect(r.json.decision).toBe('allow');
    const [span] = exporter.getFinishedSpans().filter((x) => x.attributes['tollgate.call_id'] === r.json.call_id);
    expect(span?.spanContext().traceId).toBe(TRACE_ID);
    expect(span?.parentSpanContext?.spanId).toBe(PARENT_ID);
  });

  it('starts a trace of its own for a call without traceparent', async () => {
    exporter.reset();
    const r = await s.call('POST', '/v1/agents/support-bot/calls', {
      key: s.key('agent'),
      body: { tool: 'issue_refund', arguments: { amount: '50', order: 'A-1' } },
    });
    expect(r.json.decision).toBe('allow');
    const [span] = exporter.getFinishedSpans().filter((x) => x.attributes['tollgate.call_id'] === r.json.call_id);
    expect(span?.parentSpanContext).toBeUndefined();
    expect(span?.attributes).toMatchObject({ 'tollgate.outcome': 'allow', 'tollgate.tool': 'issue_refund' });
    expect(span?.attributes['tollgate.code']).toBeUndefined();
  });
});
