// What every route may use: the workspace's document store and state, the edit seam, trials, shadows and live
// events. Opened on a data folder (sqlite-context.ts) or a shared database (postgres/postgres-context.ts), both
// through assemble-context.ts.
import type { DocumentStore, EditSeam, PolicyTrials } from '@tollgate/store';
import type { EventHub } from './event-hub.ts';
import type { Metrics } from './observability/metrics.ts';
import type { RuleShadows } from './shadows/rule-shadows.ts';
import type { RegisteredNode } from './state/nodes/model.ts';
import type { StateStore } from './state/state-store.ts';

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
   * This process as a registered deciding node, when it decides calls (`serve`, `mcp`): the gate denies an
   * agent whose policies are above its language revision (docs/deploy.md, "the language gate").
   */
  node?: RegisteredNode;
  /** This app's Prometheus metrics, on a registry of its own (observability/metrics.ts, docs/deploy.md). */
  metrics: Metrics;
  close(): Promise<void>;
}
