// Trace export for `tollgate serve` (docs/deploy.md, "Metrics and traces"): off unless an OTLP endpoint is set
// (--otlp-endpoint, else OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), then spans go by
// OTLP/HTTP through a batch processor. The server's code uses @opentelemetry/api alone
// (server/observability/tracing.ts), which this registers a provider and an AsyncLocalStorage context manager
// for, so a span's children find it.
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { TOLLGATE_VERSION } from '../server/version.ts';
import { CliError } from './io.ts';

/** A started export: shut down once the server has stopped, so the spans batched last are sent. */
export interface OtlpTracing {
  readonly endpoint: string;
  shutdown(): Promise<void>;
}

/**
 * --otlp-endpoint: an http(s) URL, the base the traces path is added to (as OTEL_EXPORTER_OTLP_ENDPOINT); undefined
 * unless given. Read before the workspace opens, so a bad value opens nothing.
 */
export function otlpEndpointOf(flag: string | undefined): string | undefined {
  if (flag === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(flag);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError('USAGE', `--otlp-endpoint is an http:// or https:// URL, got ${flag}`);
  }
  return flag;
}

/** The traces URL under an OTLP base endpoint: `/v1/traces` added to its path, as the OTLP exporter specification says. */
export function tracesUrlOf(endpoint: string): string {
  const url = new URL(endpoint);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1/traces`;
  return url.toString();
}

/**
 * Starts exporting spans when `endpoint` (--otlp-endpoint, which wins) or `env` names an OTLP endpoint; undefined
 * (nothing registered, spans are no-ops) when neither does. The exporter reads the standard OTEL_EXPORTER_OTLP_*
 * variables (headers, timeout) itself.
 *
 * @example
 * const tracing = startOtlpTracing(process.env); // OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318
 * await tracing?.shutdown();
 */
export function startOtlpTracing(env: NodeJS.ProcessEnv, endpoint?: string): OtlpTracing | undefined {
  const url = endpoint === undefined ? undefined : tracesUrlOf(endpoint);
  const where = url ?? (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
  if (!where) return undefined;
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'tollgate', 'service.version': TOLLGATE_VERSION }),
    // A URL given here wins over the OTEL_EXPORTER_OTLP_*ENDPOINT variables the exporter would read.
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter(url === undefined ? {} : { url }))],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  return {
    endpoint: where,
    shutdown: () =>
      provider.shutdown().catch(() => {
        // A collector that does not answer at stop loses the last batch; the server stops regardless.
      }),
  };
}
