// The forward step of a tools/call (docs/mcp.md, "What each decision looks like to the agent"): an allowed or
// claimed call is sent to its upstream with the arguments the gate decided on, bounded by the upstream timeout
// and the client's cancellation, the upstream's progress relayed; its result is the agent's as the upstream gave
// it. A failure is the agent's error result (tool-result.ts) and a warning for the people running the gateway.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
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
export async function forwardCall(
  pool: () => Promise<UpstreamPool>,
  call: ForwardedCall,
  request: { timeoutMs: number; signal: AbortSignal; relay: ProgressRelay | undefined },
): Promise<CallToolResult> {
  const { target } = call;
  try {
    return await (await pool()).callTool(target.server, target.tool, call.sent, {
      timeoutMs: request.timeoutMs,
      signal: request.signal,
      ...(request.relay ? { onprogress: request.relay } : {}),
    });
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
      return upstreamFailed(err, call.callId);
    }
    throw err;
  }
}
