// One agent's call decided: the agent and what it names loaded (cached), the gate's decision, the decision
// recorded (with what a rule file under shadow decides differently) and a held call's approval request written
// before the agent hears of it; a candidate under trial decides it again afterwards. The gate route
// (routes/gate.ts) and the MCP gateway (mcp/) both decide with this, so both decide and log alike.
import { randomUUID } from 'node:crypto';
import {
  type Code,
  callReadsHistory,
  decidePrepared,
  type GateDecision,
  type PreparedCallInput,
  type ShadowDifference,
} from '@tollgate/engine';
import { writeJson } from '@tollgate/engine/source';
import type { CallRequestBody } from '../call-request.ts';
import type { AppContext } from '../context.ts';
import { inSpan } from '../observability/tracing.ts';
import { argumentsDigest, canonicalTextDigest } from '../state/decisions/arguments-digest.ts';
import { newCallId } from '../state/decisions/call-id.ts';
import type { CallVia, DecisionRow } from '../state/decisions/model.ts';
import { type DecisionRecord, NO_HISTORY } from '../state/state-store.ts';
import { observeTrials } from './live-trials.ts';
import { loadAgentCached } from './load-agent.ts';
import { NO_SHADOW_PAIRS, shadowDifferencesOn, shadowPairsFor } from './shadow-runs.ts';

export type CallDecision = 'allow' | 'deny' | 'require_approval' | 'confirm';

/** What the agent is told of its call's decision (the gate route's CallAnswer). */
export interface CallAnswer {
  call_id: string;
  decision: CallDecision;
  rule: string | null;
  code: Code | null;
  explanation: Record<string, unknown>;
  approval?: { id: string; expires_at: string; approvers_count: number };
  observed?: { window: string; would_have_been: CallDecision };
}

/** How the call reached the gate, recorded with its decision (docs/mcp.md, "Calls marked as MCP"), and what the gateway knows of it. */
export interface DecideOptions {
  /** 'http' (the gate route) unless given; the MCP gateway passes 'mcp'. */
  via?: CallVia;
  /** Through the MCP gateway: whether the upstream's definition of the tool is the authorized one. */
  definition?: 'authorized' | 'changed';
  /**
   * The arguments' canonical JSON, which is also their `writeJson` text, when the body was read with it
   * (call-body-reader.ts): the digest and the row take it instead of writing the arguments again.
   */
  argumentsText?: string;
}

/** How long a decision's arguments are kept (their digest is kept always). */
export const ARGUMENTS_RETENTION_DAYS = 30;
const SWEEP_EVERY_MS = 3600_000;
const lastSweep = new WeakMap<AppContext, number>();

/** Forgets arguments past the retention period, at most once an hour per workspace (off the call's path). */
function sweepArguments(ctx: AppContext, now: Date): void {
  if (now.getTime() - (lastSweep.get(ctx) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(ctx, now.getTime());
  ctx.state.forgetOldArguments(new Date(now.getTime() - ARGUMENTS_RETENTION_DAYS * 86_400_000)).catch(() => {
    // Retried at the next sweep; arguments kept an hour longer decide nothing.
  });
}

/**
 * Decides and records one call of the agent `name` (its key already checked against the name).
 *
 * @example
 * await decideAgentCall(ctx, 'support-bot', { tool: 'read_order', arguments: { id: 'o-1' } })
 * // { call_id: '...', decision: 'allow', rule: 'orders-read', code: null, explanation: {...} }
 * await decideAgentCall(ctx, 'support-bot', { tool: 'read_order', arguments: { id: 'o-1' } }, { via: 'mcp' })
 */
export function decideAgentCall(ctx: AppContext, name: string, body: CallRequestBody, options: DecideOptions = {}): Promise<CallAnswer> {
  const via = options.via ?? 'http';
  // A span per call (observability/tracing.ts), a child of the caller's trace; never the arguments.
  return inSpan('tollgate.gate.decide', { 'tollgate.agent': name, 'tollgate.tool': body.tool, 'tollgate.via': via }, async (span) => {
    const started = performance.now();
    const { answer, decided } = await decideAndRecord(ctx, name, body, options, via);
    ctx.metrics.decided(decided.decision, decided.code, via, (performance.now() - started) / 1000);
    if (decided.shadowsCompared) ctx.metrics.shadowed(decided.shadowDifferences);
    if (span.isRecording()) {
      span.setAttribute('tollgate.call_id', answer.call_id);
      span.setAttribute('tollgate.outcome', decided.decision);
      if (decided.code !== null) span.setAttribute('tollgate.code', decided.code);
    }
    return answer;
  });
}

/** What the metrics and the span learn of a decided call beyond the agent's answer (which may hide the code). */
interface Decided {
  decision: CallDecision;
  code: Code | null;
  shadowsCompared: boolean;
  shadowDifferences: number;
}

async function decideAndRecord(
  ctx: AppContext,
  name: string,
  body: CallRequestBody,
  options: DecideOptions,
  via: CallVia,
): Promise<{ answer: CallAnswer; decided: Decided }> {
  // At once: on a shared database each read is a round trip (at most one per turn of the event loop each).
  const [{ loaded, versionsJson }, everyone] = await Promise.all([loadAgentCached(ctx, name), ctx.state.judgedMembers()]);
  // The settings may count only members holding a key of their own (load-agent.ts); the same cached read then.
  const members = loaded.requireMemberKeys ? await ctx.state.judgedMembers(true) : everyone;
  const now = ctx.now();
  sweepArguments(ctx, now);
  const pairs = ctx.shadows.knownNone() ? NO_SHADOW_PAIRS : await shadowPairsFor(ctx, loaded);
  const argumentsText = options.argumentsText;
  const digest = argumentsText === undefined ? argumentsDigest(body.arguments) : canonicalTextDigest(argumentsText);
  const createdAt = now.toISOString();
  const callId = newCallId(now.getTime());
  // The session's history is read, the call decided and its row written as one step against the session's
  // other calls, on every node (state/state-store.ts): `at_most` and spending limits count every call. The history
  // is read only when something deciding the call counts it: the agent's rules for this tool, or a rule file under
  // shadow. A candidate under trial, which decides the call again with this input, differs only in a policy
  // (live-trials.ts, candidateGate), and no policy reads the history.
  const readsHistory = pairs.length > 0 || callReadsHistory(loaded.prepared, body.tool);
  const decided: { input?: PreparedCallInput; d?: GateDecision; shadows?: number } = {};
  const record = await ctx.state.recordDecision(name, body.session, (readHistory) => {
    const history = (readsHistory ? readHistory : NO_HISTORY)();
    const input: PreparedCallInput = {
      members,
      now,
      call: {
        tool: body.tool,
        arguments: body.arguments,
        history,
        contexts: body.contexts,
        confirmed: body.confirmed,
        ...(options.definition !== undefined ? { definition: options.definition } : {}),
      },
    };
    const d = decidePrepared(loaded.prepared, input);
    decided.input = input;
    decided.d = d;
    const shadows = shadowDifferencesOn(pairs, input.call);
    decided.shadows = shadows.length;
    return recordOf(d, { callId, name, body, argumentsText, versionsJson, digest, createdAt, shadows, via });
  });
  const { input, d } = decided;
  if (!input || !d) throw new Error('the state store recorded a call it did not decide');
  const approvalId = record.approval?.id;
  if (approvalId) ctx.events.publish({ type: 'approval', id: approvalId, status: 'pending' });
  const answer: CallAnswer = {
    call_id: callId,
    decision: d.decision,
    // At disclosure none the agent learns the decision only.
    rule: loaded.agent.disclosure === 'none' ? null : d.rule,
    code: loaded.agent.disclosure === 'none' ? null : d.code,
    explanation: { ...d.notice },
  };
  if (d.observed) answer.observed = d.observed;
  if (approvalId && d.approval) {
    answer.approval = { id: approvalId, expires_at: d.approval.expires_at, approvers_count: d.approval.approvers.length };
  }
  // Candidates under trial decide the call again once it is answered (live-trials.ts).
  observeTrials(ctx, loaded.prepared, input, d, { callId, agent: name, argumentsDigest: digest });
  return {
    answer,
    decided: { decision: d.decision, code: d.code, shadowsCompared: pairs.length > 0, shadowDifferences: decided.shadows ?? 0 },
  };
}

/** What a decided call writes: its row, and for a held call its approval request. */
function recordOf(
  d: GateDecision,
  call: {
    callId: string;
    name: string;
    body: CallRequestBody;
    argumentsText: string | undefined;
    versionsJson: string;
    digest: string;
    createdAt: string;
    shadows: ShadowDifference[];
    via: CallVia;
  },
): DecisionRecord {
  const { callId, name, body, createdAt } = call;
  const row: DecisionRow = {
    call_id: callId,
    agent: name,
    tool: body.tool,
    action: d.action,
    amount: d.amount,
    currency: d.currency,
    decision: d.decision,
    rule: d.rule,
    code: d.code,
    versions: call.versionsJson,
    arguments: call.argumentsText ?? writeJson(body.arguments),
    arguments_digest: call.digest,
    session: body.session ?? null,
    created_at: createdAt,
    shadow_differences: call.shadows.length === 0 ? null : JSON.stringify(call.shadows),
    via: call.via,
  };
  if (d.decision !== 'require_approval' || !d.approval) return { row };
  return {
    row,
    approval: {
      id: randomUUID(),
      call_id: callId,
      agent: name,
      tool: body.tool,
      arguments_digest: call.digest,
      policy_document: d.approval.policy.document,
      policy_sequence: d.approval.policy.sequence,
      rule: d.rule,
      description: d.approval.description,
      approvers: JSON.stringify(d.approval.approvers),
      proof: null,
      quorum: d.approval.quorum,
      status: 'pending',
      expires_at: d.approval.expires_at,
      decided_by: null,
      decided_at: null,
      reason: null,
      signature: null,
      signed_content: null,
      claimed_at: null,
      created_at: createdAt,
    },
  };
}
