// The MCP gateway's server side, wired (docs/mcp.md): one agent's catalogue tools offered with their upstream's
// schema and description (list-tools.ts), and every tools/call answered by the call's pipeline (call-tool.ts):
// decided by decideAgentCall, the gate route's own function, then confirmed, held, claimed, forwarded or refused.
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../context.ts';
import { type CallScope, callTool } from './call-tool.ts';
import type { ExactArguments } from './exact-arguments.ts';
import { type GatewayUpstreams, type Listing, mappedTools, offerTools } from './list-tools.ts';
import { upstreamPoolOf } from './upstream-pool.ts';

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface GatewayOptions {
  /** How long a held call waits for a person before it ends with APPROVAL_WAIT_ENDED. */
  approvalWaitMs: number;
  /** How long an upstream may take to connect or answer. */
  upstreamTimeoutMs: number;
  /** The arguments as the exact reader read them, by request id (stdio, /mcp); else the SDK's. */
  exact?: ExactArguments;
  /** The gate session the calls count in (`at_most`, `after`); a new one for this gateway unless given. */
  session?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * An MCP server for one agent over the data folder's documents and database; connect it to a transport.
 *
 * @example
 * const gateway = createGateway(ctx, 'support-bot', { approvalWaitMs: 600_000, upstreamTimeoutMs: 30_000 });
 * await gateway.server.connect(new StdioServerTransport());
 */
export function createGateway(ctx: AppContext, agent: string, options: GatewayOptions) {
  // listChanged: the client is told when a tool is withheld or offered again (docs/mcp.md).
  const server = new Server({ name: 'tollgate', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  const upstreams: GatewayUpstreams = { pool: () => upstreamPoolOf(ctx, options), timeoutMs: options.upstreamTimeoutMs };
  const mapped = (listing: Listing) => mappedTools(ctx, agent, upstreams, listing);

  const offer = offerTools(ctx, mapped, () => server.sendToolListChanged());
  server.setRequestHandler(ListToolsRequestSchema, () => offer.list());

  const scope: CallScope = {
    ctx,
    agent,
    session: options.session ?? `mcp-${randomUUID()}`,
    approvalWaitMs: options.approvalWaitMs,
    exact: options.exact,
    upstreams,
    offered: () => mapped('last'),
    clientCapabilities: () => server.getClientCapabilities(),
  };
  let callsInProgress = 0;
  const answerCall = async (params: CallToolRequest['params'], extra: CallExtra, exact?: { value: unknown }): Promise<CallToolResult> => {
    callsInProgress++;
    try {
      return await callTool(scope, params, extra, exact);
    } finally {
      callsInProgress--;
    }
  };
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => answerCall(request.params, extra));

  return {
    server,
    /** A tools/call's answer, as the SDK's handler gives it: the fast path's (fast-call.ts), with the exact arguments it took. */
    answerCall,
    /** How many tools/call requests are being answered now (a held call waits in one). */
    get callsInProgress(): number {
      return callsInProgress;
    },
    async close(): Promise<void> {
      offer.stop();
      await server.close();
    },
  };
}
