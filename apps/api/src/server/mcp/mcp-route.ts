// Streamable HTTP at /mcp on `tollgate serve` (docs/mcp.md): the agent's key as a Bearer token, the body read
// by the exact JSON reader, then the SDK's web-standard transport in stateless mode, one gateway a request
// (the upstream connections are shared by the data folder's pool).
import type { IncomingMessage } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Hono } from 'hono';
import { MAX_BODY_BYTES } from '../body-limit.ts';
import type { AppContext } from '../context.ts';
import { cachedPrincipalOf } from '../state/auth-cache.ts';
import { ExactArguments, readExactMessage } from './exact-stdio-transport.ts';
import { createGateway } from './gateway.ts';

export interface McpRouteOptions {
  approvalWaitMs?: number;
  upstreamTimeoutMs?: number;
}

function rpcError(code: number, message: string, status: number): Response {
  return Response.json({ jsonrpc: '2.0', id: null, error: { code, message } }, { status });
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

/**
 * Whether a browser page on another site sent the request through a name that resolves to this machine (DNS
 * rebinding): it reached a loopback address, yet its Origin names another host. MCP requires servers to
 * validate Origin (transports, "Security Warning"); agents that are not browsers send none, so a reverse
 * proxy on the same machine keeps working whatever Host it passes on.
 */
function isRebound(local: string | undefined, origin: string | undefined): boolean {
  if (local === undefined || origin === undefined || !isLoopbackAddress(local)) return false;
  try {
    return !LOOPBACK_NAMES.has(new URL(origin).hostname);
  } catch {
    return true;
  }
}

/**
 * The /mcp route for an app over `ctx`.
 *
 * @example
 * app.route('/mcp', mcpRoute(ctx))
 */
export function mcpRoute(ctx: AppContext, options: McpRouteOptions = {}) {
  const app = new Hono();
  app.all('/', async (c) => {
    const local = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.localAddress;
    if (isRebound(local, c.req.header('origin'))) {
      return c.json(
        { error: { code: 'ORIGIN_NOT_ALLOWED', message: 'this server is on loopback; a page on another site may not call it' } },
        403,
      );
    }
    const header = c.req.header('authorization');
    const m = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    const principal = m ? cachedPrincipalOf(ctx.db, m[1] as string) : undefined;
    if (principal?.kind !== 'agent') {
      return c.json({ error: { code: 'INVALID_KEY', message: "send the agent's key: Authorization: Bearer <key>" } }, 401, {
        'WWW-Authenticate': 'Bearer',
      });
    }
    const exact = new ExactArguments();
    let parsedBody: unknown;
    if (c.req.method === 'POST') {
      const text = await c.req.text();
      if (text.length > MAX_BODY_BYTES) return rpcError(-32700, `TOO_LARGE: the body is over ${MAX_BODY_BYTES} bytes`, 413);
      // Read once: the gate decides on the exact arguments kept in `exact`, the SDK reads the plain copy.
      const read = readExactMessage(text, exact);
      if (!read.ok) return rpcError(-32700, read.problem, 400);
      parsedBody = read.message;
    }
    const gateway = createGateway(ctx, principal.agent, {
      approvalWaitMs: options.approvalWaitMs ?? 600_000,
      upstreamTimeoutMs: options.upstreamTimeoutMs ?? 30_000,
      exact,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await gateway.server.connect(transport);
    const response = await transport.handleRequest(c.req.raw, parsedBody === undefined ? undefined : { parsedBody });
    return response;
  });
  return app;
}
