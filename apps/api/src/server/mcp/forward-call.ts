// The forward step of a tools/call (docs/mcp.md, "What each decision looks like to the agent"): an allowed or
// claimed call is sent to its upstream with the arguments the gate decided on, bounded by the upstream timeout
// and the client's cancellation, the upstream's progress relayed; its result is the agent's as the upstream gave
// it. A failure is the agent's error result (tool-result.ts) and a warning for the people running the gateway.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Metrics, UpstreamOutcome } from '../observability/metrics.ts';
import { inSpan, SpanKind } from '../observability/tracing.ts';
import type { ProgressRelay } from './progress-relay.ts';
import { upstreamFailed } from './tool-result.ts';
import { UpstreamError, type UpstreamPool } from './upstream-pool.ts';

/** The call being forwarded: whose and which it is (for the warning), where it goes and what it sends. */
export interface ForwardedCall {
  agent: string;
  callId: string;
  /** The catalogue tool's name, as the agent called it. */
  tool: string;
  target: { server: string; tool: string };
  /** A plain copy of the arguments the gate decided on (plain-json.ts), never another reading of them. */
  sent: Record<string, unknown>;
}

/**
 * Sends `call` to its upstream (the pool asked now, for the running upstreams document) and answers with its
 * result, or with the error result of its failure.
 *
 * @example
 * return forwardCall(() => upstreamPoolOf(ctx, options), call, { timeoutMs: 30_000, signal: extra.signal, relay });
 */
export function forwardCall(
  pool: () => Promise<UpstreamPool>,
  call: ForwardedCall,
  request: { timeoutMs: number; signal: AbortSignal; relay: ProgressRelay | undefined; metrics?: Metrics },
): Promise<CallToolResult> {
  // A span a call (a client of the upstream) and a metric by outcome (observability/); never the arguments.
  const attributes = {
    'tollgate.call_id': call.callId,
    'tollgate.agent': call.agent,
    'tollgate.tool': call.tool,
    'tollgate.upstream': call.target.server,
  };
  return inSpan(
    'tollgate.upstream_call',
    attributes,
    async (span) => {
      const started = performance.now();
      let outcome: UpstreamOutcome = 'failed';
      try {
        const result = await sendCall(pool, call, request);
        outcome = result.failed ? 'failed' : result.result.isError === true ? 'tool_error' : 'ok';
        return result.result;
      } finally {
        request.metrics?.upstreamCall(outcome, (performance.now() - started) / 1000);
        span.setAttribute('tollgate.outcome', outcome);
      }
    },
    { kind: SpanKind.CLIENT },
  );
}

/** Sends the call; an upstream's failure is the agent's error result, marked failed. */
async function sendCall(
  pool: () => Promise<UpstreamPool>,
  call: ForwardedCall,
  request: { timeoutMs: number; signal: AbortSignal; relay: ProgressRelay | undefined },
): Promise<{ result: CallToolResult; failed: boolean }> {
  const { target } = call;
  try {
    const result = await (await pool()).callTool(target.server, target.tool, call.sent, {
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      ...(request.relay ? { onprogress: request.relay } : {}),
    });
    return { result, failed: false };
  } catch (err) {
    if (err instanceof UpstreamError) {
      // Logged for the people running the gateway (stderr; stdout is MCP's over stdio): the call and the code,
      // never its arguments nor the upstream's words, which may echo them (the agent gets those in its result).
      const said =
        err.upstream === undefined
          ? ''
          : 'code' in err.upstream
            ? ` (JSON-RPC ${err.upstream.code})`
            : ` (HTTP ${err.upstream.http_status})`;
      process.emitWarning(
        `${call.agent}'s call ${call.callId} of ${call.tool} (${target.server}/${target.tool}) failed: ${err.code}${said}`,
        'TollgateUpstreamWarning',
      );
      return { result: upstreamFailed(err, call.callId), failed: true };
    }
    throw err;
  }
}
