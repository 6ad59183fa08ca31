// What went wrong with an upstream, told by the error's type, never by its words (docs/mcp.md, "What each
// decision looks like to the agent"): a JSON-RPC error the upstream sent is UPSTREAM_FAILED with its code and
// message; a reply that is not a valid result is UPSTREAM_MALFORMED; the SDK's own timeout UPSTREAM_TIMEOUT; a
// connection that could not be made or went away UPSTREAM_UNAVAILABLE.
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { $ZodError } from 'zod/v4/core';

export type UpstreamCode = 'UPSTREAM_UNAVAILABLE' | 'UPSTREAM_TIMEOUT' | 'UPSTREAM_MALFORMED' | 'UPSTREAM_FAILED' | 'CALL_CANCELLED';

/** The JSON-RPC error an upstream answered with, as it gave it. */
export interface UpstreamRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** Why an upstream call did not give a result: the code the agent is told, and what the upstream said. */
export class UpstreamError extends Error {
  constructor(
    readonly code: UpstreamCode,
    message: string,
    /** Set for UPSTREAM_FAILED: the upstream's JSON-RPC error, or the HTTP status it refused the request with. */
    readonly upstream?: UpstreamRpcError | { http_status: number },
  ) {
    super(message);
  }
}

/**
 * The `data` of every JSON-RPC error read off an upstream's connection, wrapped: the SDK makes an McpError of
 * that error with this as its `data`, while its own errors (a timeout, a closed connection, a result it
 * refused) carry none of it. A value read from JSON is never an instance of a class, so no upstream can forge it.
 */
class SentByUpstream {
  constructor(readonly error: UpstreamRpcError) {}
}

function marked(message: JSONRPCMessage): JSONRPCMessage {
  if (!('error' in message) || message.error === null || typeof message.error !== 'object') return message;
  const { code, message: said, data } = message.error;
  const error = { code, message: said, ...(data !== undefined ? { data } : {}) };
  return { ...message, error: { ...message.error, data: new SentByUpstream(error) } } as JSONRPCMessage;
}

/** Marks the JSON-RPC errors `transport` receives as the upstream's, before the SDK's client reads them. */
export function markUpstreamErrors<T extends Transport>(transport: T): T {
  let handler: Transport['onmessage'];
  // The client sets onmessage when it connects; what it sets is handed each message marked.
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => (handler === undefined ? undefined : (message: JSONRPCMessage, extra?: never) => handler?.(marked(message), extra)),
    set: (h: Transport['onmessage']) => {
      handler = h;
    },
  });
  return transport;
}

/** The UpstreamError for what a request to `server` was rejected with; `signal` is the agent's own. */
export function upstreamFailure(server: string, err: unknown, signal?: AbortSignal): UpstreamError {
  if (err instanceof UpstreamError) return err;
  if (err instanceof McpError && err.data instanceof SentByUpstream) {
    const { error } = err.data;
    return new UpstreamError('UPSTREAM_FAILED', `upstream ${server} answered with JSON-RPC error ${error.code}: ${error.message}`, error);
  }
  if (signal?.aborted) return new UpstreamError('CALL_CANCELLED', 'the client cancelled the call');
  if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) {
    return new UpstreamError('UPSTREAM_TIMEOUT', `upstream ${server} did not answer in time`);
  }
  if (err instanceof McpError && err.code === ErrorCode.ConnectionClosed) {
    return new UpstreamError('UPSTREAM_UNAVAILABLE', `the connection to upstream ${server} closed before it answered`);
  }
  // The SDK's client refused what came back: a result its schema rejects, or structured content that does not
  // match the tool's output schema (McpError of the SDK's own making, not the upstream's).
  if (err instanceof $ZodError || err instanceof McpError) {
    return new UpstreamError('UPSTREAM_MALFORMED', `upstream ${server} answered with something that is not a valid result`);
  }
  if (err instanceof StreamableHTTPError && err.code !== undefined) {
    // -1 is the SDK's own: an answer of a content type MCP does not use. Any other code is the HTTP status.
    if (err.code === -1) return new UpstreamError('UPSTREAM_MALFORMED', `upstream ${server} answered with something that is not MCP`);
    return new UpstreamError('UPSTREAM_FAILED', `upstream ${server} refused the request with HTTP ${err.code}: ${err.message}`, {
      http_status: err.code,
    });
  }
  return new UpstreamError('UPSTREAM_UNAVAILABLE', `upstream ${server} could not be reached: ${(err as Error)?.message ?? String(err)}`);
}
