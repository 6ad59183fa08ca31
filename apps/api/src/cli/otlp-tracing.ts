// Trace export for `tollgate serve` (docs/deploy.md, "Metrics and traces"): off unless an OTLP endpoint is set
// (OTEL_EXPORTER_OTLP_ENDPOINT, or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), then spans go by OTLP/HTTP through a batch
// processor. The server's code uses @opentelemetry/api alone (server/observability/tracing.ts), which this
// registers a provider and an AsyncLocalStorage context manager for, so a span's children find it.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { TOLLGATE_VERSION } from '../server/version.ts';

/** A started export: shut down once the server has stopped, so the spans batched last are sent. */
export interface OtlpTracing {
  readonly endpoint: string;
  shutdown(): Promise<void>;
}

/**
 * Starts exporting spans when `env` names an OTLP endpoint; undefined (nothing registered, spans are no-ops) when
 * it names none. The exporter reads the standard OTEL_EXPORTER_OTLP_* variables (headers, timeout) itself.
 *
 * @example
 * const tracing = startOtlpTracing(process.env); // OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318
 * await tracing?.shutdown();
 */
export function startOtlpTracing(env: NodeJS.ProcessEnv): OtlpTracing | undefined {
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!endpoint) return undefined;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'tollgate', 'service.version': TOLLGATE_VERSION }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return {
    endpoint,
    shutdown: () =>
      provider.shutdown().catch(() => {
        // A collector that does not answer at stop loses the last batch; the server stops regardless.
      }),
  };
}
