// A tools/call through the gateway (docs/mcp.md, "What each decision looks like to the agent"), as a pipeline of
// named steps, each taking what it needs and either going on or ending the call with its result (tool-result.ts):
// read the arguments, find the offered tool, decide (decideAgentCall, the gate route's own function, so the same
// order, log and approvals), confirm (confirm-call.ts), await a held call's approval (wait-approval.ts), claim it
// (claimHeldCall, the claim route's own step), forward to the upstream (forward-call.ts).
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolRequest,
  CallToolResult,
  ClientCapabilities,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { claimHeldCall } from '../gate/claim-held-call.ts';
import { type CallAnswer, decideAgentCall } from '../gate/decide-agent-call.ts';
import { askToConfirm, CONFIRMED_META, confirmCall, type Decided } from './confirm-call.ts';
import type { ExactArguments } from './exact-arguments.ts';
import { forwardCall } from './forward-call.ts';
import { type GatewayUpstreams, type Mapped, type MappedTool, NOTHING_MAPPED } from './list-tools.ts';
import { plainJson } from './plain-json.ts';
import { progressRelay } from './progress-relay.ts';
import { errorResult, type Refused, toldOf, upstreamDetails } from './tool-result.ts';
import { awaitApproval, type HeldApproval } from './wait-approval.ts';

type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a gateway's calls are made with: whose they are, where they count, and the gateway's parts they use. */
export interface CallScope {
  ctx: AppContext;
  agent: string;
  /** The gate session the calls count in (`at_most`, `after`). */
  session: string;
  /** How long a held call waits for a person, and a confirmation for an answer. */
  approvalWaitMs: number;
  /** The arguments as the exact reader read them, by request id (stdio, /mcp); else the SDK's. */
  exact: ExactArguments | undefined;
  upstreams: GatewayUpstreams;
  /** The agent's mapped tools as last listed. */
  offered: () => Promise<Mapped>;
  /** What the client declared in `initialize`, read when it is to be asked. */
  clientCapabilities: () => ClientCapabilities | undefined;
}

/**
 * Answers one tools/call: decide → confirm → await approval → claim → forward, any step ending it early.
 *
 * @example
 * server.setRequestHandler(CallToolRequestSchema, (request, extra) => callTool(scope, request.params, extra));
 */
export async function callTool(
  scope: CallScope,
  params: CallToolRequest['params'],
  extra: CallExtra,
  taken?: { value: unknown },
): Promise<CallToolResult> {
  const { ctx, agent } = scope;
  const name = params.name;
  const read = readArguments(scope.exact, params, extra, taken);
  if ('refused' in read) return read.refused;
  const found = await findTool(scope.offered, name);
  if ('refused' in found) return found.refused;
  const decide = (confirmed: boolean) => decideCall(scope, found.mapped, read.exact, confirmed);
  const decided = await decide(extra._meta?.[CONFIRMED_META] === true);
  if ('refused' in decided) return decided.refused;
  const confirmed = await confirmCall(name, decided.answer, {
    ask: (question) =>
      askToConfirm(question, { elicitation: scope.clientCapabilities()?.elicitation, extra, waitMs: scope.approvalWaitMs }),
    decideConfirmed: () => decide(true),
  });
  if ('refused' in confirmed) return confirmed.refused;
  const answer = confirmed.answer;
  const relay = progressRelay(extra);
  if (answer.decision === 'require_approval') {
    const held = await awaitApproval(ctx, answer, { waitMs: scope.approvalWaitMs, signal: extra.signal, relay });
    if ('refused' in held) return held.refused;
    const claimed = await claimCall(ctx, answer, held.approval, read.exact);
    if (claimed) return claimed.refused;
  }
  return forwardCall(
    scope.upstreams.pool,
    { agent, callId: answer.call_id, tool: name, target: found.target, sent: read.sent },
    { timeoutMs: scope.upstreams.timeoutMs, signal: extra.signal, relay, metrics: ctx.metrics },
  );
}

// Reading the call.

/**
 * The arguments the gate decides on: as the exact reader read them when there is one (taken already by the fast
 * path, else by the request's id; a call it did not read is refused), else the SDK's; and the plain copy the
 * upstream gets, never another reading of them.
 */
function readArguments(
  exact: ExactArguments | undefined,
  params: CallToolRequest['params'],
  extra: CallExtra,
  taken: { value: unknown } | undefined,
): Refused | { exact: Record<string, unknown>; sent: Record<string, unknown> } {
  const kept = taken ?? exact?.take(extra.requestId);
  if (exact && kept === undefined)
    return { refused: errorResult('INVALID_BODY', 'the arguments of this call were not read; send it again') };
  const value = kept ? (kept.value ?? {}) : (params.arguments ?? {});
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { refused: errorResult('INVALID_BODY', 'arguments are a JSON object') };
  }
  return { exact: value as Record<string, unknown>, sent: plainJson(value) as Record<string, unknown> };
}

/** The offered tool `name` and its upstream target, from the last listing. */
async function findTool(
  offered: () => Promise<Mapped>,
  name: string,
): Promise<Refused | { mapped: MappedTool; target: { server: string; tool: string } }> {
  const listed = await offered().catch(() => NOTHING_MAPPED);
  const mapped = listed.tools.get(name);
  const target = mapped?.tool.upstream;
  if (mapped && target) return { mapped, target };
  // A tool mapped to an upstream that failed its listing: what the upstream did, not only that it is absent.
  const failure = listed.unlisted.get(name);
  if (failure) return { refused: errorResult(failure.code, failure.message, upstreamDetails(failure)) };
  return { refused: errorResult('TOOL_NOT_OFFERED', `${name} is not a tool this gateway offers; list the tools again`) };
}

// Deciding.

/**
 * The decide step: the call decided and logged through decideAgentCall, `via` MCP with whether the tool's
 * definition is the authorized one. A withheld tool's call is still decided, so its denial
 * (TOOL_DEFINITION_CHANGED) is in the decision log; a denial or a refusal of the request ends the call.
 */
async function decideCall(scope: CallScope, found: MappedTool, args: Record<string, unknown>, confirmed: boolean): Promise<Decided> {
  let answer: CallAnswer;
  try {
    answer = await decideAgentCall(
      scope.ctx,
      scope.agent,
      { tool: found.tool.name, arguments: args, session: scope.session, ...(confirmed ? { confirmed: true } : {}) },
      { via: 'mcp', definition: found.authorized ? 'authorized' : 'changed' },
    );
  } catch (err) {
    if (err instanceof ApiError) return { refused: errorResult(err.code, err.message, err.details as Record<string, unknown> | undefined) };
    throw err;
  }
  if (answer.decision === 'deny') return { refused: errorResult(answer.code ?? 'DENIED', 'the call is denied', toldOf(answer)) };
  return { answer };
}

// Claiming.

/**
 * The claim step: an approved held call is claimed exactly once, bound to the argument digest, by the one claim
 * the HTTP claim route makes too (gate/claim-held-call.ts); a refusal ends the call with its code.
 */
async function claimCall(
  ctx: AppContext,
  answer: CallAnswer,
  approval: HeldApproval,
  args: Record<string, unknown>,
): Promise<Refused | undefined> {
  const claim = await claimHeldCall(ctx, approval.id, args);
  if (claim.ok) return undefined;
  return {
    refused: errorResult(claim.code, `approval ${approval.id} cannot be claimed: ${claim.message}`, { ...toldOf(answer), approval }),
  };
}
