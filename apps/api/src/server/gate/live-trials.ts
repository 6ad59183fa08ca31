// Trials on live calls (docs/review.md, "Trials on live calls"): once the gate has answered a call, each policy
// the answer used that is under trial decides the call again with its candidate version in the agent's place,
// and the trial counts whether the two answers agreed. It runs after the answer is sent, so it never delays
// or changes what the caller hears; its counts are advisory, and a failure to count never reaches a call.
import {
  type CompiledPolicy,
  decidePrepared,
  type GateDecision,
  type PreparedCallInput,
  type PreparedGate,
  prepareGate,
} from '@tollgate/engine';
import { verdictOf } from '@tollgate/store';
import type { AppContext } from '../context.ts';

/** The agent's parts with one policy replaced by a candidate, prepared once per candidate version. */
const withCandidates = new WeakMap<PreparedGate, Map<string, PreparedGate>>();

/** The decided call as a trial's scope sees it: who made it, and the digest of its arguments (never the values). */
export interface ObservedCall {
  callId: string;
  agent: string;
  argumentsDigest: string;
}

/**
 * Schedules the trials of a decided call, after the answer.
 *
 * @example
 * observeTrials(ctx, loaded.prepared, input, decision, { callId, agent: name, argumentsDigest: digest }); // returns at once
 */
export function observeTrials(
  ctx: AppContext,
  prepared: PreparedGate,
  input: PreparedCallInput,
  decision: GateDecision,
  call: ObservedCall,
): void {
  const policies = prepared.parts.policies;
  // No turn of the event loop for a call no trial can count: every policy it used is known to have none.
  if (policies.every((p) => ctx.trials.knownIdle(p.document))) return;
  setImmediate(() => {
    runTrials(ctx, prepared, input, decision, call).catch(() => {
      // Advisory: a store that is busy or closing leaves this call uncounted (docs/review.md).
    });
  });
}

async function runTrials(ctx: AppContext, prepared: PreparedGate, input: PreparedCallInput, decision: GateDecision, call: ObservedCall) {
  // The call's own time decides whether it falls before a trial's end, not when its turn comes here.
  const scoped = { ...call, tool: input.call.tool, at: input.now };
  for (const policy of prepared.parts.policies) {
    const trial = await ctx.trials.active(policy.document);
    if (!trial || trial.candidate === policy.sequence) continue;
    await ctx.trials.observe(trial, scoped, verdictOf(decision), (candidate) => {
      const compiled = ctx.trials.policyOf(candidate.digest, candidate.text);
      const verdict = verdictOf(decidePrepared(candidateGate(prepared, policy.document, candidate.sequence, compiled), input));
      const running = verdictOf(decision);
      ctx.metrics.trialled(verdict.decision !== running.decision || verdict.rule !== running.rule || verdict.code !== running.code);
      return verdict;
    });
    publishTrial(ctx, policy.document);
  }
}

function candidateGate(prepared: PreparedGate, document: string, sequence: number, policy: CompiledPolicy): PreparedGate {
  let known = withCandidates.get(prepared);
  if (!known) {
    known = new Map();
    withCandidates.set(prepared, known);
  }
  const key = `${document}@${sequence}`;
  const hit = known.get(key);
  if (hit) return hit;
  const parts = prepared.parts;
  const policies = parts.policies.map((p) => (p.document === document ? { document, sequence, policy } : p));
  const gate = prepareGate({ ...parts, policies });
  known.set(key, gate);
  return gate;
}

/** At most one `trial` event a document this often, with the counts as they are when it is sent. */
export const TRIAL_EVENT_MS = 250;
const pending = new WeakMap<AppContext, Map<string, { at: number; timer?: ReturnType<typeof setTimeout> }>>();

/**
 * Publishes the trial's counts on the event stream, throttled: a burst of calls sends one event at its start
 * and one at most every TRIAL_EVENT_MS after, the last with the final counts.
 */
export function publishTrial(ctx: AppContext, document: string): void {
  let byDocument = pending.get(ctx);
  if (!byDocument) {
    byDocument = new Map();
    pending.set(ctx, byDocument);
  }
  const entry = byDocument.get(document) ?? { at: 0 };
  byDocument.set(document, entry);
  if (entry.timer) return;
  entry.timer = setTimeout(
    () => {
      entry.timer = undefined;
      entry.at = Date.now();
      ctx.trials.report(document).then(
        (r) => {
          if (!r) return;
          ctx.events.publish({
            type: 'trial',
            document,
            candidate: r.candidate,
            running: r.running,
            calls: r.calls,
            sampled: r.sampled,
            agreed: r.agreed,
            differed: r.differed,
          });
        },
        () => {},
      );
    },
    Math.max(0, entry.at + TRIAL_EVENT_MS - Date.now()),
  );
  entry.timer.unref();
}
