// The MCP gateway's server side: one agent's catalogue tools offered with their upstream's schema and
// description, and every tools/call decided by decideAgentCall (the gate route's own function, so the same
// order, log and approvals), then forwarded, refused or held (docs/mcp.md).
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type ServerNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { type CatalogueTool, readUpstreams, UPSTREAMS_ID } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { type CallAnswer, decideAgentCall } from '../gate/decide-agent-call.ts';
import { loadAgentCached } from '../gate/load-agent.ts';
import { claimApproval } from '../state/approvals.ts';
import { argumentsDigest } from '../state/decisions.ts';
import type { ExactArguments } from './exact-stdio-transport.ts';
import { UpstreamError, UpstreamPool } from './upstream-pool.ts';
import { waitForApproval } from './wait-approval.ts';

export interface GatewayOptions {
  /** How long a held call waits for a person before it ends with APPROVAL_WAIT_ENDED. */
  approvalWaitMs: number;
  /** How long an upstream may take to connect or answer. */
  upstreamTimeoutMs: number;
  /** The arguments as the exact reader read them, by request id (stdio); else the SDK's. */
  exact?: ExactArguments;
  env?: NodeJS.ProcessEnv;
}

const PROGRESS_EVERY_MS = 1000;

/** A claim's refusal as the API's claim route names it. */
const CLAIM_CODES = {
  not_found: 'NOT_FOUND',
  not_approved: 'NOT_APPROVED',
  already_claimed: 'ALREADY_CLAIMED',
  arguments_mismatch: 'ARGUMENTS_MISMATCH',
  expired: 'APPROVAL_EXPIRED',
} as const;

/** An error result: the tool call is answered, with the project's error shape as its text. */
function errorResult(code: string, message: string, details?: Record<string, unknown>): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } }) }],
  };
}

/**
 * An MCP server for one agent over the data folder's documents and database; connect it to a transport.
 *
 * @example
 * const gateway = createGateway(ctx, 'support-bot', { approvalWaitMs: 600_000, upstreamTimeoutMs: 30_000 });
 * await gateway.server.connect(new StdioServerTransport());
 */
export function createGateway(ctx: AppContext, agent: string, options: GatewayOptions) {
  const server = new Server({ name: 'tollgate', version: '1' }, { capabilities: { tools: {} } });
  const session = `mcp-${randomUUID()}`;
  const upstreams = () => upstreamsOf(ctx, options);

  /** The agent's catalogue tools that map to an upstream tool, each with what its upstream says of it. */
  async function offered(): Promise<Map<string, { tool: CatalogueTool; upstream: Tool }>> {
    const { loaded } = await loadAgentCached(ctx, agent);
    const mapped = loaded.parts.catalogue.tools.filter((t) => t.upstream !== undefined);
    const live = await upstreams();
    const servers = [...new Set(mapped.map((t) => t.upstream?.server as string))];
    // Servers are asked at once; one that fails offers nothing, and never holds the others' tools.
    const listed = await Promise.all(
      servers.map((s) =>
        live.listTools(s).then(
          (tools): [string, Tool[]] => [s, tools],
          (): [string, Tool[]] => [s, []],
        ),
      ),
    );
    const byServer = new Map<string, Tool[]>(listed);
    const out = new Map<string, { tool: CatalogueTool; upstream: Tool }>();
    for (const tool of mapped) {
      const upstream = byServer.get(tool.upstream?.server as string)?.find((u) => u.name === tool.upstream?.tool);
      if (upstream) out.set(tool.name, { tool, upstream });
    }
    return out;
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = await offered();
    return {
      tools: [...tools.values()].map(({ tool, upstream }) => ({
        name: tool.name,
        ...(upstream.description !== undefined ? { description: upstream.description } : {}),
        inputSchema: upstream.inputSchema,
      })),
    };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const name = request.params.name;
    const sent = request.params.arguments ?? {};
    const exact = options.exact ? (options.exact.take(extra.requestId) ?? {}) : sent;
    if (exact === null || typeof exact !== 'object' || Array.isArray(exact)) {
      return errorResult('INVALID_BODY', 'arguments are a JSON object');
    }
    const target = (await offered().catch(() => new Map())).get(name)?.tool.upstream;
    if (!target) return errorResult('TOOL_NOT_OFFERED', `${name} is not a tool this gateway offers; list the tools again`);
    let answer: CallAnswer;
    try {
      answer = await decideAgentCall(ctx, agent, { tool: name, arguments: exact as Record<string, unknown>, session }, { via: 'mcp' });
    } catch (err) {
      if (err instanceof ApiError) return errorResult(err.code, err.message, err.details as Record<string, unknown> | undefined);
      throw err;
    }
    const told = { call_id: answer.call_id, rule: answer.rule, explanation: answer.explanation };
    if (answer.decision === 'deny') return errorResult(answer.code ?? 'DENIED', 'the call is denied', told);
    if (answer.decision === 'confirm') {
      return errorResult(answer.code ?? 'CONFIRMATION_REQUIRED', 'a person must confirm this call first', told);
    }
    if (answer.decision === 'require_approval') {
      const approval = answer.approval;
      if (!approval) return errorResult(answer.code ?? 'DENIED', 'the call is held, with no approval request to wait for', told);
      const token = extra._meta?.progressToken;
      let sentAt = 0;
      const outcome = await waitForApproval(ctx, approval.id, {
        waitMs: options.approvalWaitMs,
        signal: extra.signal,
        onTick: (elapsed) => {
          if (token === undefined || elapsed - sentAt < PROGRESS_EVERY_MS) return;
          sentAt = elapsed;
          const notice: ServerNotification = {
            method: 'notifications/progress',
            params: {
              progressToken: token,
              progress: Math.floor(elapsed / 1000),
              message: `waiting for a person to decide approval ${approval.id}`,
            },
          };
          void extra.sendNotification(notice).catch(() => undefined);
        },
      });
      const held = { ...told, approval };
      if (outcome === 'denied') return errorResult('APPROVAL_DENIED', `approval ${approval.id} was denied`, held);
      if (outcome === 'expired') return errorResult('APPROVAL_EXPIRED', `approval ${approval.id} expired undecided`, held);
      if (outcome === 'cancelled')
        return errorResult('CALL_CANCELLED', `the client cancelled the call held for approval ${approval.id}`, held);
      if (outcome === 'timed_out') {
        return errorResult(
          'APPROVAL_WAIT_ENDED',
          `approval ${approval.id} is still undecided; the gateway stopped waiting, so retry later`,
          held,
        );
      }
      // Claimed exactly once, bound to the argument digest, as an agent claims over HTTP.
      const claim = claimApproval(ctx.db, approval.id, argumentsDigest(exact), ctx.now());
      if (!claim.ok) return errorResult(CLAIM_CODES[claim.reason], `approval ${approval.id} cannot be claimed: ${claim.reason}`, held);
      ctx.events.publish({ type: 'approval', id: approval.id, status: 'claimed' });
    }
    try {
      return await (await upstreams()).callTool(target.server, target.tool, sent, extra.signal);
    } catch (err) {
      if (err instanceof UpstreamError) return errorResult(err.code, err.message, { call_id: answer.call_id });
      throw err;
    }
  });

  return {
    server,
    async close(): Promise<void> {
      await server.close();
    },
  };
}

const pools = new WeakMap<AppContext, { sequence: number; pool: UpstreamPool }>();

/**
 * The data folder's pool of upstream connections for the running upstreams document, shared by every gateway
 * of the process (the HTTP transport makes one a request) and made again when a new version runs; closed
 * with the server (its events hub closing).
 */
async function upstreamsOf(ctx: AppContext, options: GatewayOptions): Promise<UpstreamPool> {
  const doc = await ctx.store.get(UPSTREAMS_ID);
  const sequence = doc?.sequence ?? 0;
  const held = pools.get(ctx);
  if (held?.sequence === sequence) return held.pool;
  const read = doc ? readUpstreams(doc.text) : undefined;
  void held?.pool.close();
  const pool = new UpstreamPool(read?.ok ? read.upstreams.servers : [], options.upstreamTimeoutMs, options.env);
  if (!held) ctx.events.onClose(() => void pools.get(ctx)?.pool.close());
  pools.set(ctx, { sequence, pool });
  return pool;
}
