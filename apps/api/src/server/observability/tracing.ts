// OpenTelemetry spans for the gate (docs/deploy.md, "Metrics and traces"): a span per decided call, per held
// call's wait and per upstream call, continuing the caller's W3C `traceparent`. Only @opentelemetry/api is used
// here, a no-op until a tracer provider is registered (`tollgate serve` with an OTLP endpoint,
// cli/otlp-tracing.ts, or a test's in-memory exporter), so nothing is exported unless asked. Attributes name the
// call (its id, agent, tool, outcome, code), never its arguments.
import type { IncomingHttpHeaders } from 'node:http';
import {
  type Attributes,
  type Context,
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/** The provider the API answers with until one is registered: a fresh proxy's delegate is the API's no-op. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();
/** What `fn` is given while nothing is registered: a span that records nothing, as the no-op tracer's. */
const UNRECORDED = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Whether a tracer provider is registered. Until one is, a span and its context would record nothing, so the gate
 * skips making them: a call's decision pays nothing for tracing that is off (docs/performance.md, "The api suite").
 */
export function tracingOn(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NOOP_PROVIDER;
}
const w3c = new W3CTraceContextPropagator();
const HEADERS = {
  // forEach rather than keys(): every workspace's lib types Headers with it (bench's has no DOM.Iterable).
  keys: (headers: Headers) => {
    const names: string[] = [];
    headers.forEach((_, name) => {
      names.push(name);
    });
    return names;
  },
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
};

/** The context a request's `traceparent` (and `tracestate`) names, or the active one when it names none. */
export function incomingContext(headers: Headers): Context {
  const active = context.active();
  return headers.has('traceparent') ? w3c.extract(active, headers, HEADERS) : active;
}

/**
 * Runs `fn` in the context the request's headers name (incomingContext): its spans continue the caller's trace. The
 * headers are read only while tracing is on, so a request pays nothing for them otherwise.
 */
export function withIncoming<T>(request: Request, fn: () => T): T {
  if (!tracingOn()) return fn();
  const headers = request.headers;
  return headers.has('traceparent') ? context.with(incomingContext(headers), fn) : fn();
}

const NODE_HEADERS = {
  keys: (headers: IncomingHttpHeaders) => Object.keys(headers),
  get: (headers: IncomingHttpHeaders, key: string) => headers[key],
};

/**
 * withIncoming for a request node:http read (the gate's direct lane, gate/direct-lane.ts): the same context from the
 * same headers, which node:http names in lowercase and joins as a web Headers object does.
 */
export function withIncomingHeaders<T>(headers: IncomingHttpHeaders, fn: () => T): T {
  if (!tracingOn() || headers.traceparent === undefined) return fn();
  return context.with(w3c.extract(context.active(), headers, NODE_HEADERS), fn);
}

/**
 * Runs `fn` in a span `name`, a child of `parent` (the active context unless given); the span ends when `fn`
 * settles, marked an error when it throws.
 *
 * @example
 * await inSpan('tollgate.gate', { 'tollgate.agent': name }, (span) => decide(span));
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  options: { parent?: Context; kind?: SpanKind } = {},
): Promise<T> {
  if (!tracingOn()) {
    try {
      return fn(UNRECORDED);
    } catch (err) {
      return Promise.reject(err);
    }
  }
  const parent = options.parent ?? context.active();
  // The tracer of the provider registered now: a tracer kept from an earlier one (ProxyTracer keeps the first
  // delegate it found) would send spans to a provider since disabled and shut down.
  const span = trace.getTracer('tollgate').startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, attributes }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : 'error' });
      throw err;
    } finally {
      span.end();
    }
  });
}

export { SpanKind };
