// One agent's call decided: the agent and what it names loaded (cached), the gate's decision, the decision
// recorded (with what a rule file under shadow decides differently) and a held call's approval request written
// before the agent hears of it; a candidate under trial decides it again afterwards. The gate route
// (routes/gate.ts) and the MCP gateway (mcp/) both decide with this, so both decide and log alike.
import { randomUUID } from 'node:crypto';
import { decidePrepared } from '@tollgate/engine';
import { writeJson } from '@tollgate/engine/source';
import type { CallRequestBody } from '../call-request.ts';
import type { AppContext } from '../context.ts';
import { cachedJudgedMembers } from '../state/auth-cache.ts';
import { newCallId } from '../state/call-id.ts';
import { decisionLogOf } from '../state/decision-log.ts';
import type { CallVia } from '../state/decision-row.ts';
import { argumentsDigest, type DecisionRow, forgetOldArguments, sessionHistory } from '../state/decisions.ts';
import { observeTrials } from './live-trials.ts';
import { loadAgentCached } from './load-agent.ts';
import { shadowDifferencesFor } from './shadow-runs.ts';

export type CallDecision = 'allow' | 'deny' | 'require_approval' | 'confirm';

/** What the agent is told of its call's decision (the gate route's CallAnswer). */
export interface CallAnswer {
  call_id: string;
  decision: CallDecision;
  rule: string | null;
  code: string | null;
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
}

/** How long a decision's arguments are kept (their digest is kept always). */
export const ARGUMENTS_RETENTION_DAYS = 30;
const SWEEP_EVERY_MS = 3600_000;
const lastSweep = new WeakMap<AppContext, number>();

/** Forgets arguments past the retention period, at most once an hour per data folder. */
function sweepArguments(ctx: AppContext, now: Date): void {
  if (now.getTime() - (lastSweep.get(ctx) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(ctx, now.getTime());
  forgetOldArguments(ctx.db, new Date(now.getTime() - ARGUMENTS_RETENTION_DAYS * 86_400_000));
}

/**
 * Decides and records one call of the agent `name` (its key already checked against the name).
 *
 * @example
 * await decideAgentCall(ctx, 'support-bot', { tool: 'read_order', arguments: { id: 'o-1' } })
 * // { call_id: '...', decision: 'allow', rule: 'orders-read', code: null, explanation: {...} }
 * await decideAgentCall(ctx, 'support-bot', { tool: 'read_order', arguments: { id: 'o-1' } }, { via: 'mcp' })
 */
export async function decideAgentCall(
  ctx: AppContext,
  name: string,
  body: CallRequestBody,
  options: DecideOptions = {},
): Promise<CallAnswer> {
  const { loaded, versionsJson } = await loadAgentCached(ctx, name);
  const now = ctx.now();
  sweepArguments(ctx, now);
  const members = cachedJudgedMembers(ctx.db);
  const history = body.session === undefined ? [] : sessionHistory(ctx.db, name, body.session);
  const input = {
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
  const shadows = await shadowDifferencesFor(ctx, loaded, input.call);
  const callId = newCallId(now.getTime());
  const digest = argumentsDigest(body.arguments);
  const createdAt = now.toISOString();
  const approvalId = d.decision === 'require_approval' && d.approval ? randomUUID() : undefined;
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
    versions: versionsJson,
    arguments: writeJson(body.arguments),
    arguments_digest: digest,
    session: body.session ?? null,
    created_at: createdAt,
    shadow_differences: shadows.length === 0 ? null : JSON.stringify(shadows),
    via: options.via ?? 'http',
  };
  // A held call and its approval request are written before the agent hears of it; any other decision
  // joins this tick's batch (see state/decision-log.ts).
  const log = decisionLogOf(ctx.db);
  if (approvalId && d.approval) {
    log.recordHeld(row, {
      id: approvalId,
      call_id: callId,
      agent: name,
      tool: body.tool,
      arguments_digest: digest,
      policy_document: d.approval.policy.document,
      policy_sequence: d.approval.policy.sequence,
      rule: d.rule,
      description: d.approval.description,
      approvers: JSON.stringify(d.approval.approvers),
      status: 'pending',
      expires_at: d.approval.expires_at,
      decided_by: null,
      decided_at: null,
      reason: null,
      signature: null,
      signed_content: null,
      claimed_at: null,
      created_at: createdAt,
    });
  } else {
    log.record(row);
  }
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
  observeTrials(ctx, loaded.prepared, input, d, callId);
  return answer;
}
