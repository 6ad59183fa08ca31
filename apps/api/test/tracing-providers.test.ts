// Spans go to the tracer provider registered when they are made (observability/tracing.ts): one registered, then
// disabled and another registered in its place (a server stopped and another started in the same process), leaves
// the second's spans to the second, and nothing is recorded while none is registered.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { inSpan } from '../src/server/observability/tracing.ts';

function registered(): { exporter: InMemorySpanExporter; provider: BasicTracerProvider } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  expect(trace.setGlobalTracerProvider(provider)).toBe(true);
  return { exporter, provider };
}

function unregister(): void {
  trace.disable();
  context.disable();
}

afterEach(unregister);

describe('spans and the registered provider', () => {
  it('sends each span to the provider registered when it is made, never to one disabled before', async () => {
    const first = registered();
    await inSpan('first.span', { n: 1 }, async () => 'done');
    expect(first.exporter.getFinishedSpans().map((s) => s.name)).toEqual(['first.span']);
    await first.provider.shutdown();
    unregister();

    // Nothing registered: the span is made by no provider, and the function still runs.
    expect(await inSpan('unregistered.span', {}, async (span) => span.isRecording())).toBe(false);

    const second = registered();
    const ended = await inSpan('second.span', { n: 2 }, async (span) => span.isRecording());
    expect(ended).toBe(true);
    expect(second.exporter.getFinishedSpans().map((s) => s.name)).toEqual(['second.span']);
  });

  it('nests a span under the one around it, within one provider', async () => {
    const { exporter } = registered();
    await inSpan('outer', {}, () => inSpan('inner', {}, async () => undefined));
    const spans = exporter.getFinishedSpans();
    const outer = spans.find((s) => s.name === 'outer');
    const inner = spans.find((s) => s.name === 'inner');
    expect(inner?.spanContext().traceId).toBe(outer?.spanContext().traceId);
    expect(inner?.parentSpanContext?.spanId ?? (inner as unknown as { parentSpanId?: string }).parentSpanId).toBe(
      outer?.spanContext().spanId,
    );
  });
});
