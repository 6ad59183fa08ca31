// A context over a document store and a state store, whichever kind each is (sqlite-context.ts,
// postgres/postgres-context.ts): the edit seam with its writers, trials and shadows, the first run's adoption of
// running bindings, and this process registered as a deciding node when it decides calls.
import { type DocumentKind, documentKindOf } from '@tollgate/engine';
import { type DocumentStore, type DocumentValidator, EditSeam, engineValidators, HoldModelEdits, PolicyTrials } from '@tollgate/store';
import { offLoop } from './compile-thread.ts';
import type { AppContext } from './context.ts';
import type { EventHub } from './event-hub.ts';
import { HoldWideningEdits } from './four-eyes/hold-widening-edits.ts';
import { HoldLanguageEdits } from './nodes/hold-language-edits.ts';
import { createMetrics } from './observability/metrics.ts';
import { chainDocumentChanges } from './record/documents.ts';
import { policyImpactOnPool } from './review/review-pool.ts';
import { HoldRulesetEdits } from './rulesets/hold-ruleset-edits.ts';
import { RuleShadows } from './shadows/rule-shadows.ts';
import type { LanguageRevision } from './state/nodes/model.ts';
import type { StateStore } from './state/state-store.ts';
import { adoptRunningBindings } from './state/tools/adopt-bindings.ts';
import { TOLLGATE_VERSION } from './version.ts';
import { fanOutOnPublish } from './webhooks/outbox.ts';

/** How a process that decides calls registers as a node (docs/deploy.md, "the language gate"). */
export interface NodeRegistration {
  languageRevision: LanguageRevision;
  heartbeatMs?: number;
}

/** The parts of a context that depend on where documents and state are kept. */
export interface ContextParts {
  dataDir: string;
  store: DocumentStore;
  state: StateStore;
  events: EventHub;
  documentChanges: { generation: number };
  now?: (() => Date) | undefined;
  node?: NodeRegistration | undefined;
  documentsFresh?: () => Promise<void>;
  /** Closed after the store and the state (a shared connection pool, a listener). */
  close?: () => Promise<void>;
}

/** A context over a document store and a state store, whichever kind each is. */
export async function assembleContext(parts: ContextParts): Promise<AppContext> {
  const { dataDir, store, state, events, documentChanges } = parts;
  const now = parts.now ?? (() => new Date());
  await adoptRunningBindings(state, store, now());
  const stopChaining = chainDocumentChanges(events, store, state, now);
  const seam = new EditSeam({
    store,
    kindOf: documentKindOf,
    // A policy's approvers.users are checked against the workspace's members as they are at each edit
    // (docs/policy.md, "Approvers"): the getter reads the members cache, never a copy taken at startup.
    validators: offLoopRules(
      engineValidators({
        get members() {
          return state.judgedMembersSeen();
        },
      }),
    ),
    // A model's edit of any kind is held for a person to activate; under four eyes a widening edit is held for
    // another member; a person's new rule-set pins are a draft. A policy edit newer than a live node decides is
    // stored as a version that does not run.
    wrapWriter: (inner) =>
      new HoldModelEdits(new HoldWideningEdits(new HoldRulesetEdits(new HoldLanguageEdits(inner, store, state), store), store), store),
  });
  const node =
    parts.node === undefined
      ? undefined
      : await state.registerNode({
          version: TOLLGATE_VERSION,
          languageRevision: parts.node.languageRevision,
          ...(parts.node.heartbeatMs !== undefined ? { heartbeatMs: parts.node.heartbeatMs } : {}),
        });
  const ctx: AppContext = {
    dataDir,
    state,
    store,
    seam,
    trials: new PolicyTrials(store, { counter: state.trialCounter, now }),
    shadows: new RuleShadows(store),
    documentChanges,
    ...(parts.documentsFresh !== undefined ? { documentsFresh: parts.documentsFresh } : {}),
    now,
    events,
    ...(node !== undefined ? { node } : {}),
    metrics: createMetrics({ observe: (at) => state.observe(at), now }),
    async close() {
      // Off the registry first: a stopping node no longer holds back a newer document.
      await node?.stop();
      // The fan-out under way ends before the state closes (what it leaves waits in its table).
      await stopEnqueuing();
      await stopChaining();
      await store.close();
      // Queued decisions are written before the database closes: a clean shutdown loses none.
      await state.close();
      await parts.close?.();
    },
  };
  // Every approval transition this process makes is fanned out to the webhook outbox at once (webhooks/outbox.ts).
  const stopEnqueuing = fanOutOnPublish(ctx);
  return ctx;
}

/**
 * The sheet and Colang validators and impact analysers, and the policy's impact (its decision diff,
 * docs/documents.md, "Policies"), run on the compile thread for a big text, so an edit that saves one never
 * holds the gate or /v1/health while it compiles (compile-thread.ts). They read the texts alone (no members,
 * no catalogue), so the thread's answer is the one the event loop would give; a policy's validation reads
 * the members and stays here.
 */
function offLoopRules(validators: Record<DocumentKind, DocumentValidator>): Record<DocumentKind, DocumentValidator> {
  const out = { ...validators };
  for (const kind of ['sheet', 'colang'] as const) {
    const inner = validators[kind];
    out[kind] = {
      validate: (id, text) => offLoop(text.length, { validate: { id, text } }, () => inner.validate(id, text)),
      impact: (id, running, text) =>
        offLoop(text.length + (running?.length ?? 0), { impact: { kind, running, text } }, () => inner.impact(id, running, text)),
    };
  }
  const policy = validators.policy;
  out.policy = {
    validate: (id, text) => policy.validate(id, text),
    // A policy's impact is a decision diff, which can take seconds whatever the text's size: on the review pool.
    impact: (id, running, text) => policyImpactOnPool(running, text, `${id}: the edit's impact`),
  };
  return out;
}
