// The MCP gateway's server side: one agent's catalogue tools offered with their upstream's schema and
// description, and every tools/call decided by decideAgentCall (the gate route's own function, so the same
// order, log and approvals), then forwarded, refused or held (docs/mcp.md).
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  type ElicitResult,
  ElicitResultSchema,
  ListToolsRequestSchema,
  type Progress,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { claimHeldCall } from '../gate/claim-held-call.ts';
import { type CallAnswer, decideAgentCall } from '../gate/decide-agent-call.ts';
import { loadAgentCached } from '../gate/load-agent.ts';
import { listedDigest } from '../state/upstream-definitions.ts';
import type { ExactArguments } from './exact-stdio-transport.ts';
import { watchOffers } from './offer-watch.ts';
import { type Mapped, NOTHING_MAPPED, offeredTools, upstreamDetails } from './offered-tools.ts';
import { plainJson } from './plain-json.ts';
import { UpstreamError, upstreamPoolOf } from './upstream-pool.ts';
import { waitForApproval } from './wait-approval.ts';

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

const PROGRESS_EVERY_MS = 1000;

/** The member of a tools/call's `_meta` by which a client re-sends a call a person confirmed (docs/mcp.md). */
export const CONFIRMED_META = 'tollgate/confirmed';

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
  // listChanged: the client is told when a tool is withheld or offered again (docs/mcp.md).
  const server = new Server({ name: 'tollgate', version: '1' }, { capabilities: { tools: { listChanged: true } } });
  const session = options.session ?? `mcp-${randomUUID()}`;
  let callsInProgress = 0;
  const upstreams = () => upstreamPoolOf(ctx, options);
  const bound = { timeoutMs: options.upstreamTimeoutMs };

  /**
   * The agent's catalogue tools that map to a tool their upstream lists, each with what the upstream says of
   * it and whether that definition is the one authorized (docs/mcp.md, "Pinned tool definitions"). 'fresh'
   * asks every upstream anew (tools/list); a call uses the last listing ('last'); a re-reading of what is
   * offered uses only listings made already ('listed'): a server never listed has no authorized definition
   * to offer, and is not started for it.
   */
  async function mapped(listing: 'fresh' | 'last' | 'listed'): Promise<Mapped> {
    const fresh = listing === 'fresh';
    const listedOnly = listing === 'listed';
    const { loaded } = await loadAgentCached(ctx, agent);
    const tools = loaded.parts.catalogue.tools.filter((t) => t.upstream !== undefined);
    const live = await upstreams();
    const servers = [...new Set(tools.map((t) => t.upstream?.server as string))];
    // Servers are asked at once; one that fails offers nothing, and never holds the others' tools.
    const failed = new Map<string, UpstreamError>();
    const listed = await Promise.all(
      servers.map((s) =>
        live.listTools(s, { ...bound, fresh, listedOnly }).then(
          (found): [string, Tool[]] => [s, found],
          (err: unknown): [string, Tool[]] => {
            if (err instanceof UpstreamError) failed.set(s, err);
            return [s, []];
          },
        ),
      ),
    );
    const byServer = new Map<string, Tool[]>(listed);
    const pins = await ctx.state.pinnedDigests(loaded.agent.catalogue);
    const out: Mapped = { tools: new Map(), unlisted: new Map() };
    for (const tool of tools) {
      const target = tool.upstream as { server: string; tool: string };
      if (out.tools.has(tool.name) || out.unlisted.has(tool.name)) continue;
      const failure = failed.get(target.server);
      if (failure) out.unlisted.set(tool.name, failure);
      const upstream = byServer.get(target.server)?.find((u) => u.name === target.tool);
      if (!upstream) continue;
      const pinned = pins.get(tool.name);
      const authorized = pinned !== undefined && pinned !== null && pinned === listedDigest(target.server, upstream);
      out.tools.set(tool.name, { tool, upstream, authorized });
    }
    return out;
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const tools = offeredTools(await mapped('fresh'));
    told = JSON.stringify(tools);
    return { tools };
  });

  // What the client was last told it may call (its last tools/list, or the list a notification announced); a
  // change of it is announced with notifications/tools/list_changed. Nothing is announced before a first list.
  let told: string | undefined;
  let checking: Promise<void> | undefined;
  let again = false;
  const recheck = async () => {
    do {
      again = false;
      const now = JSON.stringify(offeredTools(await mapped('listed').catch(() => NOTHING_MAPPED)));
      if (told !== undefined && now !== told) {
        told = now;
        await server.sendToolListChanged().catch(() => undefined);
      }
    } while (again);
  };
  const stopWatching = watchOffers(ctx, () => {
    if (told === undefined) return;
    if (checking) {
      again = true;
      return;
    }
    checking = recheck().finally(() => {
      checking = undefined;
    });
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    callsInProgress++;
    try {
      return await callTool(request.params, extra);
    } finally {
      callsInProgress--;
    }
  });

  /**
   * Asks the client's user, by MCP elicitation, whether the call may go on (docs/mcp.md, "Confirmations"): true
   * only for an accepted answer whose `confirm` is true; undefined when the client cannot be asked.
   */
  async function askToConfirm(question: string, extra: CallExtra): Promise<boolean | undefined> {
    // An empty elicitation capability is form elicitation (MCP 2025-11-25, "Capabilities").
    const elicitation = server.getClientCapabilities()?.elicitation;
    if (elicitation === undefined || (elicitation.form === undefined && elicitation.url !== undefined)) return undefined;
    let result: ElicitResult;
    try {
      // Sent on the call's own stream (related to its request), so over HTTP it reaches the client that waits.
      result = await extra.sendRequest(
        {
          method: 'elicitation/create',
          params: {
            message: question,
            requestedSchema: {
              type: 'object',
              properties: { confirm: { type: 'boolean', title: 'Confirm', description: question } },
              required: ['confirm'],
            },
          },
        },
        ElicitResultSchema,
        { timeout: options.approvalWaitMs, signal: extra.signal },
      );
    } catch {
      // No answer (the client failed the request, or a person took longer than the approval wait): not confirmed.
      return false;
    }
    return result.action === 'accept' && result.content?.confirm === true;
  }

  async function callTool(params: CallToolRequest['params'], extra: CallExtra): Promise<CallToolResult> {
    const name = params.name;
    const kept = options.exact?.take(extra.requestId);
    if (options.exact && kept === undefined) return errorResult('INVALID_BODY', 'the arguments of this call were not read; send it again');
    const exact = kept ? (kept.value ?? {}) : (params.arguments ?? {});
    if (exact === null || typeof exact !== 'object' || Array.isArray(exact)) {
      return errorResult('INVALID_BODY', 'arguments are a JSON object');
    }
    // The upstream gets a plain copy of the arguments the gate decided on, never another reading of them.
    const sent = plainJson(exact) as Record<string, unknown>;
    const offered = await mapped('last').catch(() => NOTHING_MAPPED);
    const found = offered.tools.get(name);
    const target = found?.tool.upstream;
    if (!found || !target) {
      // A tool mapped to an upstream that failed its listing: what the upstream did, not only that it is absent.
      const failure = offered.unlisted.get(name);
      if (failure) return errorResult(failure.code, failure.message, upstreamDetails(failure));
      return errorResult('TOOL_NOT_OFFERED', `${name} is not a tool this gateway offers; list the tools again`);
    }
    const decide = (confirmed: boolean) =>
      // A withheld tool's call is still decided, so its denial (TOOL_DEFINITION_CHANGED) is in the decision log.
      decideAgentCall(
        ctx,
        agent,
        { tool: name, arguments: exact as Record<string, unknown>, session, ...(confirmed ? { confirmed: true } : {}) },
        { via: 'mcp', definition: found.authorized ? 'authorized' : 'changed' },
      );
    let answer: CallAnswer;
    try {
      answer = await decide(extra._meta?.[CONFIRMED_META] === true);
      if (answer.decision === 'confirm') {
        const question =
          typeof answer.explanation.confirmation === 'string' ? answer.explanation.confirmation : `Confirm the call to ${name}?`;
        const confirmed = await askToConfirm(question, extra);
        if (confirmed === false) {
          return errorResult('CONFIRMATION_DECLINED', 'the call was not confirmed; it is not sent', {
            call_id: answer.call_id,
            rule: answer.rule,
            explanation: answer.explanation,
          });
        }
        // Confirmed: decided again, so the confirmed call is logged and may still be held or denied.
        if (confirmed === true) answer = await decide(true);
      }
    } catch (err) {
      if (err instanceof ApiError) return errorResult(err.code, err.message, err.details as Record<string, unknown> | undefined);
      throw err;
    }
    const told = { call_id: answer.call_id, rule: answer.rule, explanation: answer.explanation };
    if (answer.decision === 'deny') return errorResult(answer.code ?? 'DENIED', 'the call is denied', told);
    if (answer.decision === 'confirm') {
      return errorResult(
        answer.code ?? 'CONFIRMATION_REQUIRED',
        `a person must confirm this call first; once confirmed, send it again with "_meta": {"${CONFIRMED_META}": true}`,
        told,
      );
    }
    const token = extra._meta?.progressToken;
    // The client's progress token hears a held call's seconds, then the upstream's own progress; a value that
    // would not increase is dropped, since MCP's progress must increase with each notification.
    let progressed = Number.NEGATIVE_INFINITY;
    const sendProgress = ({ progress, total, message }: Progress) => {
      if (token === undefined || progress <= progressed) return;
      progressed = progress;
      const notice: ServerNotification = {
        method: 'notifications/progress',
        params: {
          progressToken: token,
          progress,
          ...(total !== undefined ? { total } : {}),
          ...(message !== undefined ? { message } : {}),
        },
      };
      void extra.sendNotification(notice).catch(() => undefined);
    };
    if (answer.decision === 'require_approval') {
      const approval = answer.approval;
      if (!approval) return errorResult(answer.code ?? 'DENIED', 'the call is held, with no approval request to wait for', told);
      let sentAt = 0;
      const outcome = await waitForApproval(ctx, approval.id, {
        waitMs: options.approvalWaitMs,
        signal: extra.signal,
        onTick: (elapsed) => {
          if (elapsed - sentAt < PROGRESS_EVERY_MS) return;
          sentAt = elapsed;
          sendProgress({ progress: Math.floor(elapsed / 1000), message: `waiting for a person to decide approval ${approval.id}` });
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
      const claim = await claimHeldCall(ctx, approval.id, exact);
      if (!claim.ok) return errorResult(claim.code, `approval ${approval.id} cannot be claimed: ${claim.message}`, held);
    }
    try {
      const relay = token === undefined ? undefined : sendProgress;
      return await (await upstreams()).callTool(target.server, target.tool, sent, {
        ...bound,
        signal: extra.signal,
        ...(relay ? { onprogress: relay } : {}),
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
          `${agent}'s call ${answer.call_id} of ${name} (${target.server}/${target.tool}) failed: ${err.code}${said}`,
          'TollgateUpstreamWarning',
        );
        return errorResult(err.code, err.message, { call_id: answer.call_id, ...upstreamDetails(err) });
      }
      throw err;
    }
  }

  return {
    server,
    /** How many tools/call requests are being answered now (a held call waits in one). */
    get callsInProgress(): number {
      return callsInProgress;
    },
    async close(): Promise<void> {
      stopWatching();
      await server.close();
    },
  };
}
