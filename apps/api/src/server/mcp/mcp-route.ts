// Streamable HTTP at /mcp on `tollgate serve` (docs/mcp.md): the agent's key as a Bearer token, the body read
// once by the exact JSON reader, then the SDK's web-standard transport of the request's MCP session. A session
// (Mcp-Session-Id) is one gateway, so its per-session rules span its requests; it belongs to the key that
// opened it. The upstream connections are shared by the data folder's pool.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { isInitializeRequest, type JSONRPCMessage, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { type Context, Hono } from 'hono';
import { keyAuthentication } from '../auth.ts';
import { bodyLimit, MAX_REQUEST_BODY_BYTES } from '../body-limit.ts';
import type { AppContext } from '../context.ts';
import { type Identity, isTollgateKey } from '../identity/identity.ts';
import { withIncoming } from '../observability/tracing.ts';
import { hashKey } from '../state/members/credentials.ts';
import { ExactArguments } from './exact-arguments.ts';
import { readExactMessage } from './exact-stdio-transport.ts';
import { type FastCall, FastCalls, fastCallOf } from './fast-call.ts';
import { createGateway } from './gateway.ts';
import { type RequestId, requestIdOf } from './request-id.ts';

/** Most MCP sessions open at once on one server; an initialize past it is refused (503, SESSION_LIMIT). */
export const MAX_MCP_SESSIONS = 1000;
/** A session with no request for this long, and no call being answered, is ended (docs/mcp.md, "Sessions"). */
export const MCP_SESSION_IDLE_MS = 30 * 60_000;
/** How often idle sessions are looked for. */
const SWEEP_EVERY_MS = 60_000;

export interface McpRouteOptions {
  approvalWaitMs?: number;
  upstreamTimeoutMs?: number;
  /** MAX_MCP_SESSIONS unless given. */
  maxSessions?: number;
  /** MCP_SESSION_IDLE_MS unless given. */
  sessionIdleMs?: number;
  /** Tokens from OpenID Connect issuers beside agents' keys (identity/; docs/mcp.md, "Authorization"). */
  identity?: Identity;
  /**
   * Whether a plain tools/call skips the SDK's transport and Protocol (fast-call.ts); true unless false, which
   * sends every message the SDK's way (the differential test's other side, apps/api/test/mcp-fast-path.test.ts).
   */
  fastCalls?: boolean;
}

/** One MCP session: its transport and gateway, the key that opened it (by digest), and when it was last used. */
interface McpSession {
  transport: WebStandardStreamableHTTPServerTransport;
  gateway: ReturnType<typeof createGateway>;
  exact: ExactArguments;
  /** The plain tools/calls answered without the SDK's transport and Protocol (fast-call.ts). */
  fast: FastCalls;
  keyDigest: string;
  lastUsed: number;
}

/**
 * How long a fast call's answer is awaited before it is streamed: a call answered sooner (every call not held for a
 * person) goes out as one JSON body in one write; a later one has its event stream's headers sent then, as the SDK
 * sends them at once.
 */
const HEADERS_ALONE_AFTER_MS = 1000;

/**
 * Whether the SDK's transport takes a POST of a session by its headers (it refuses the others: 406, 415, 400 for an
 * unknown protocol version): only then may the fast path answer it, and are its calls' arguments kept for the
 * session (a refused call's, kept, would be taken by a later call of its id).
 */
function sdkTakesHeaders(c: Context): boolean {
  const accept = c.req.header('accept');
  const version = c.req.header('mcp-protocol-version');
  return (
    accept?.includes('application/json') === true &&
    accept.includes('text/event-stream') &&
    isJsonContentType(c.req.header('content-type')) &&
    (version === undefined || SUPPORTED_PROTOCOL_VERSIONS.includes(version))
  );
}

/** One server-sent event as the SDK's transport writes it (no event id: no event store, docs/mcp.md "Sessions"). */
function sseEvent(message: JSONRPCMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/**
 * A fast call's answer. Answered within HEADERS_ALONE_AFTER_MS, it is the one message as `application/json`, the
 * other answer MCP gives a POST of a request (transports, "Sending Messages to the Server": a client must take
 * both), which a client reads for much less than an event stream (docs/performance.md, "Answered as JSON"). A later
 * one is the event stream the SDK's transport would give (its headers, then one event), streamed so a held call's
 * client has its headers. A cancelled call's stream ends with no event.
 */
async function answerFast(session: McpSession, call: FastCall, sessionId: string): Promise<Response> {
  const headers = {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache, no-transform',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
    'mcp-session-id': sessionId,
  };
  const replied = new Promise<JSONRPCMessage | undefined>((resolve) => session.fast.start(call, resolve));
  let timer: NodeJS.Timeout | undefined;
  const early = await Promise.race([
    replied.then((message) => ({ message })),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), HEADERS_ALONE_AFTER_MS);
    }),
  ]);
  clearTimeout(timer);
  if (early?.message) {
    return new Response(JSON.stringify(early.message), {
      status: 200,
      headers: { 'Content-Type': 'application/json', 'mcp-session-id': sessionId },
    });
  }
  if (early) return new Response('', { status: 200, headers });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      void replied.then((message) => {
        try {
          if (message) controller.enqueue(encoder.encode(sseEvent(message)));
          controller.close();
        } catch {
          // The client went away (the stream was cancelled): there is no one to answer, as with the SDK's stream.
        }
      });
    },
  });
  return new Response(body, { status: 200, headers });
}

/** A JSON-RPC error as the whole answer: with the request's id when its body was read, else null (JSON-RPC 2.0). */
function rpcError(code: number, message: string, status: number, headers?: Record<string, string>, id: RequestId = null): Response {
  return Response.json({ jsonrpc: '2.0', id, error: { code, message } }, { status, ...(headers ? { headers } : {}) });
}

/** MCP's answer to a session id it does not hold (transports, "Session Management"): start a new session. */
const sessionNotFound = () => rpcError(-32001, 'SESSION_NOT_FOUND: no such session; initialize a new one', 404);

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
  const maxSessions = options.maxSessions ?? MAX_MCP_SESSIONS;
  const idleMs = options.sessionIdleMs ?? MCP_SESSION_IDLE_MS;
  const sessions = new Map<string, McpSession>();
  ctx.metrics.watchMcpSessions(() => sessions.size);
  let sweeper: NodeJS.Timeout | undefined;
  // Initializes being answered: counted against the cap with the sessions, so two at once cannot pass it.
  let opening = 0;

  const idle = (session: McpSession, now: number) => session.gateway.callsInProgress === 0 && now - session.lastUsed > idleMs;
  const sweep = () => {
    const now = Date.now();
    for (const session of [...sessions.values()]) if (idle(session, now)) void session.transport.close();
  };
  let stopping = false;
  // A stopping server ends every session (their event streams close, held calls end) and opens no new one.
  ctx.events.onClose(() => {
    stopping = true;
    clearInterval(sweeper);
    for (const session of [...sessions.values()]) void session.transport.close();
  });

  /** A new session's transport and gateway; it joins the map once the SDK has initialized it. */
  function openSession(agent: string, keyDigest: string, exact: ExactArguments): McpSession {
    const id = randomUUID();
    const gateway = createGateway(ctx, agent, {
      approvalWaitMs: options.approvalWaitMs ?? 600_000,
      upstreamTimeoutMs: options.upstreamTimeoutMs ?? 30_000,
      exact,
      // The gate session is the MCP session: at_most and after count its calls over all its requests.
      session: `mcp-${id}`,
    });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: (sid) => {
        sessions.set(sid, session);
        sweeper ??= setInterval(sweep, Math.min(SWEEP_EVERY_MS, idleMs)).unref();
      },
      onsessionclosed: (sid) => {
        sessions.delete(sid);
      },
    });
    // Whatever ends it (DELETE, idle, a server stopping), a closed session leaves the map.
    transport.onclose = () => {
      session.fast.closeAll();
      sessions.delete(id);
      if (sessions.size === 0) {
        clearInterval(sweeper);
        sweeper = undefined;
      }
    };
    const fast = new FastCalls({ answer: gateway.answerCall, server: gateway.server });
    const session: McpSession = { transport, gateway, exact, fast, keyDigest, lastUsed: Date.now() };
    return session;
  }

  // A body over the limit is refused unread, by its length or as it streams, as on every API route.
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_REQUEST_BODY_BYTES,
      onError: () => rpcError(-32700, `TOO_LARGE: the body is over ${MAX_REQUEST_BODY_BYTES} bytes`, 413),
    }),
  );
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
    const bearer = m?.[1];
    // A token acts as its agent claim's agent; its session is that identity's, so it survives a token's refresh.
    const byToken =
      bearer !== undefined && options.identity && !isTollgateKey(bearer)
        ? await options.identity.authenticate(bearer, ctx.state)
        : undefined;
    const byKey = !byToken && bearer !== undefined ? await keyAuthentication(ctx, bearer) : undefined;
    // A revoked or expired key, or a removed member's, is refused with the code that says which (docs/security.md).
    if (byKey && 'refused' in byKey)
      return c.json({ error: { code: byKey.refused, message: byKey.message } }, 401, { 'WWW-Authenticate': 'Bearer' });
    const principal = byToken ? byToken.principal : byKey?.principal;
    if (principal?.kind !== 'agent') {
      const [code, message] = byToken
        ? (['TOKEN_IDENTITY', "the token names a member; /mcp takes an agent's token (its agent claim) or key"] as const)
        : (['INVALID_KEY', "send the agent's key: Authorization: Bearer <key>"] as const);
      return c.json({ error: { code, message } }, 401, { 'WWW-Authenticate': 'Bearer' });
    }
    // The key as the store keeps it (its digest), so the key itself is never held by a session.
    const keyDigest = byToken ? byToken.owner : hashKey(bearer as string);
    const sessionId = c.req.header('mcp-session-id');
    let session = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (sessionId !== undefined) {
      // A session id is not a credential: another key's request for it is answered as for an unknown id.
      if (!session || session.keyDigest !== keyDigest) return sessionNotFound();
      if (idle(session, Date.now())) {
        await session.transport.close();
        return sessionNotFound();
      }
      session.lastUsed = Date.now();
    }
    const exact = session && sdkTakesHeaders(c) ? session.exact : new ExactArguments();
    let parsedBody: unknown;
    if (c.req.method === 'POST') {
      const text = await c.req.text();
      if (text.length > MAX_REQUEST_BODY_BYTES) return rpcError(-32700, `TOO_LARGE: the body is over ${MAX_REQUEST_BODY_BYTES} bytes`, 413);
      // Read once: the gate decides on the exact arguments kept in `exact`, the SDK reads the plain copy.
      const read = readExactMessage(text, exact);
      if (!read.ok) return rpcError(-32700, read.problem, 400, undefined, read.id);
      parsedBody = read.message;
    }
    if (!session) {
      const initializing = (Array.isArray(parsedBody) ? parsedBody : [parsedBody]).some((message) => isInitializeRequest(message));
      const id = requestIdOf(parsedBody, []);
      if (!initializing) {
        return rpcError(-32000, 'SESSION_REQUIRED: send the Mcp-Session-Id of your session, or initialize one', 400, undefined, id);
      }
      if (stopping) return rpcError(-32000, 'SERVER_STOPPING: the server is stopping; no session is opened', 503, undefined, id);
      if (sessions.size + opening >= maxSessions) {
        return rpcError(
          -32000,
          `SESSION_LIMIT: ${maxSessions} sessions are open; end one (DELETE /mcp) or retry later`,
          503,
          { 'Retry-After': '60' },
          id,
        );
      }
      opening++;
      try {
        session = openSession(principal.agent, keyDigest, exact);
        await session.gateway.server.connect(session.transport);
        const opened = session;
        const response = await withIncoming(c.req.raw, () => opened.transport.handleRequest(c.req.raw, { parsedBody }));
        // An initialize the SDK refused opened no session: nothing holds the gateway.
        if (!sessions.has(session.transport.sessionId ?? '')) await session.gateway.close();
        return response;
      } finally {
        opening--;
      }
    }
    // A tools/call's spans continue the /mcp request's `traceparent` (observability/tracing.ts).
    const open = session;
    if (parsedBody !== undefined) {
      // A plain tools/call of a client that cannot be asked (no elicitation: nothing but the answer goes on its
      // stream) skips the SDK's transport and Protocol; a cancellation reaches the fast calls as the SDK's.
      const fast =
        options.fastCalls !== false &&
        sessionId !== undefined &&
        sdkTakesHeaders(c) &&
        !open.gateway.server.getClientCapabilities()?.elicitation;
      // Its exact arguments are taken now, in the order read (fastCallOf), never by another call of its id.
      const call = fast ? fastCallOf(parsedBody, exact) : undefined;
      if (call && sessionId !== undefined) return withIncoming(c.req.raw, () => answerFast(open, call, sessionId));
      open.fast.cancel(parsedBody);
    }
    return withIncoming(c.req.raw, () => open.transport.handleRequest(c.req.raw, parsedBody === undefined ? undefined : { parsedBody }));
  });
  return app;
}
