// What every route may use: the data folder's document store, its database, the edit seam and trials.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DocumentKind, documentKindOf } from '@tollgate/engine';
import {
  type DocumentStore,
  type DocumentValidator,
  EditSeam,
  engineValidators,
  FolderDocumentStore,
  HoldModelEdits,
  loadProblems,
  PolicyTrials,
  writeFileAtomic,
} from '@tollgate/store';
import packageJson from '../../package.json' with { type: 'json' };
import { offLoop } from './compile-thread.ts';
import { HoldLanguageEdits } from './nodes/hold-language-edits.ts';
import { HoldRulesetEdits } from './rulesets/hold-ruleset-edits.ts';
import { LIFECYCLE_KEY } from './rulesets/lifecycle.ts';
import { RuleShadows } from './shadows/rule-shadows.ts';
import { type Db, openDatabase } from './state/db.ts';
import type { LanguageRevision, RegisteredNode } from './state/nodes/model.ts';
import { SqliteStateStore } from './state/sqlite-state.ts';
import type { StateStore } from './state/state-store.ts';
import { adoptRunningBindings } from './state/tools/adopt-bindings.ts';
import { versionsInUse } from './versions-in-use.ts';

export interface AppContext {
  dataDir: string;
  /** The server's state: SQLite beside the data folder, or PostgreSQL shared by several nodes (state/state-store.ts). */
  state: StateStore;
  store: DocumentStore;
  seam: EditSeam;
  trials: PolicyTrials;
  /** Candidate versions of rule files checked detect-only beside the running ones (docs/review.md). */
  shadows: RuleShadows;
  /**
   * Moves after every write to the documents (save, activate, revert, a working copy taken in): what is
   * derived from documents (the gate's loaded agents) is trusted while it stands still.
   */
  documentChanges: { readonly generation: number };
  /**
   * Brings documentChanges up to date with writes other nodes made (a shared store): awaited before what is derived
   * from documents is trusted. Absent for a store only this process writes through (the folder's watcher tells it).
   */
  documentsFresh?: () => Promise<void>;
  now(): Date;
  /** Live updates for the console (server-sent events). */
  events: EventHub;
  /**
   * This process as a registered gateway node, when it decides calls (`serve`, `mcp`): the gate denies an
   * agent whose policies are above its language revision (docs/deploy.md, "the language gate").
   */
  gateway?: RegisteredNode;
  close(): Promise<void>;
}

/** A context on a data folder with its SQLite database, which tests and the CLI may read directly. */
export interface SqliteAppContext extends AppContext {
  db: Db;
  state: SqliteStateStore;
  store: FolderDocumentStore;
}

/** Tollgate's version, as each gateway node registers it. */
export const TOLLGATE_VERSION: string = packageJson.version;

export type ServerEvent =
  | { type: 'approval'; id: string; status: string }
  | { type: 'document'; id: string; sequence: number }
  | {
      type: 'trial';
      document: string;
      candidate: number;
      running: boolean;
      calls: number;
      sampled: number;
      agreed: number;
      differed: number;
    };

/** A tiny publish/subscribe for server-sent events; closing it ends every stream (a server stopping). */
export class EventHub {
  private readonly listeners = new Set<(e: ServerEvent) => void>();
  private readonly closers = new Set<() => void>();
  private closed = false;
  private relay: ((e: ServerEvent) => void) | undefined;
  publish(event: ServerEvent): void {
    this.deliver(event);
    this.relay?.(event);
  }
  /** An event another node published: to this process's streams only (postgres/cluster-events.ts). */
  deliver(event: ServerEvent): void {
    for (const listener of this.listeners) listener(event);
  }
  /** Sends every event published here on to the other nodes too. */
  relayTo(relay: (e: ServerEvent) => void): void {
    this.relay = relay;
  }
  subscribe(listener: (e: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** Calls `closer` when the hub closes (at once if it has); returns a function that forgets it. */
  onClose(closer: () => void): () => void {
    if (this.closed) {
      closer();
      return () => {};
    }
    this.closers.add(closer);
    return () => this.closers.delete(closer);
  }
  /** Ends every stream: a stopping server must not wait for clients that never hang up. */
  close(): void {
    this.closed = true;
    for (const closer of [...this.closers]) closer();
    this.closers.clear();
  }
}

/** Opens a data folder: `documents/` (the folder store) and `tollgate.db`. */
export async function openContext(
  dataDir: string,
  options: {
    watch?: boolean;
    now?: () => Date;
    lockTimeoutMs?: number;
    /** Register as a gateway node that decides up to this language revision (docs/deploy.md). */
    gateway?: { languageRevision: LanguageRevision; heartbeatMs?: number };
  } = {},
): Promise<SqliteAppContext> {
  const events = new EventHub();
  const documentChanges = { generation: 0 };
  mkdirSync(dataDir, { recursive: true });
  ignoreInGit(dataDir);
  const store: FolderDocumentStore = await FolderDocumentStore.open(join(dataDir, 'documents'), {
    validate: loadProblems,
    watch: options.watch ?? true,
    versionsInUse,
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
    // The store calls this only once open has returned, so `store` is set (docs/store.md, "Startup").
    onChange: (ids) => {
      documentChanges.generation++;
      for (const id of ids) {
        void store.get(id).then((v) => {
          if (v) events.publish({ type: 'document', id, sequence: v.sequence });
        });
      }
    },
    // Statuses change what agents run, so a lifecycle write counts as a document change (trial counts do not).
    onWrite: (write) => {
      if (write.kind === 'document' || write.key === LIFECYCLE_KEY) documentChanges.generation++;
    },
  });
  const db = openDatabase(join(dataDir, 'tollgate.db'));
  const state = new SqliteStateStore(db);
  const ctx = await assembleContext({ dataDir, store, state, events, documentChanges, now: options.now, gateway: options.gateway });
  return { ...ctx, db, state, store };
}

/** The parts of a context that depend on where documents and state are kept. */
export interface ContextParts {
  dataDir: string;
  store: DocumentStore;
  state: StateStore;
  events: EventHub;
  documentChanges: { generation: number };
  now?: (() => Date) | undefined;
  gateway?: { languageRevision: LanguageRevision; heartbeatMs?: number } | undefined;
  documentsFresh?: () => Promise<void>;
  /** Closed after the store and the state (a shared connection pool, a listener). */
  close?: () => Promise<void>;
}

/** A context over a document store and a state store, whichever kind each is (this file; postgres-context.ts). */
export async function assembleContext(parts: ContextParts): Promise<AppContext> {
  const { dataDir, store, state, events, documentChanges } = parts;
  const now = parts.now ?? (() => new Date());
  await adoptRunningBindings(state, store, now());
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
    // A model's edit of any kind is held for a person to activate; a person's new rule-set pins are a draft.
    // A policy edit newer than a live gateway decides is stored as a version that does not run.
    wrapWriter: (inner) => new HoldModelEdits(new HoldRulesetEdits(new HoldLanguageEdits(inner, store, state), store), store),
  });
  const gateway =
    parts.gateway === undefined
      ? undefined
      : await state.registerGateway({
          version: TOLLGATE_VERSION,
          languageRevision: parts.gateway.languageRevision,
          ...(parts.gateway.heartbeatMs !== undefined ? { heartbeatMs: parts.gateway.heartbeatMs } : {}),
        });
  return {
    dataDir,
    state,
    store,
    seam,
    trials: new PolicyTrials(store, { counter: state.trialCounter }),
    shadows: new RuleShadows(store),
    documentChanges,
    ...(parts.documentsFresh !== undefined ? { documentsFresh: parts.documentsFresh } : {}),
    now,
    events,
    ...(gateway !== undefined ? { gateway } : {}),
    async close() {
      // Off the registry first: a stopping node no longer holds back a newer document.
      await gateway?.stop();
      await store.close();
      // Queued decisions are written before the database closes: a clean shutdown loses none.
      await state.close();
      await parts.close?.();
    },
  };
}

/** What a team keeping the data folder in git must not commit: the store's state, the database, the demo keys. */
const IGNORED = ['documents/.tollgate/', 'tollgate.db', 'tollgate.db-*', 'demo-keys.json'];

/** Writes (or completes) the data folder's .gitignore, so only documents are versioned by the team (docs/store.md). */
export function ignoreInGit(dataDir: string): void {
  const path = join(dataDir, '.gitignore');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const have = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = IGNORED.filter((line) => !have.has(line));
  if (missing.length === 0) return;
  const head = text === '' ? "# Written by Tollgate: the store's state, the database and the demo keys stay out of git.\n" : '';
  writeFileAtomic(path, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${head}${missing.join('\n')}\n`);
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
    impact: (id, running, text) =>
      offLoop(text.length + (running?.length ?? 0), { impact: { kind: 'policy', running, text } }, () => policy.impact(id, running, text)),
  };
  return out;
}
