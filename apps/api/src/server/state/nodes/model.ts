// The registry of deciding nodes (docs/deploy.md, "The language gate"), as both state stores keep it: every
// process that decides calls (`tollgate serve`, each `tollgate mcp`) registers itself with the highest policy
// language revision it decides and a heartbeat, so a write that would make a newer document run can first ask
// whether every live node reads it. Pure: a node's liveness from its last heartbeat, the rows read back as views,
// which nodes hold a revision back; the SQL is sqlite.ts's and postgres.ts's, the heartbeat heartbeat.ts's.
//
// Published names differ: the API, the OpenAPI document, the table, the test variable and the error code call
// these nodes "gateways" (GET /v1/gateways, the `gateways` table, TOLLGATE_GATEWAY_HEARTBEAT_MS,
// GATEWAYS_NOT_UPGRADED), and stay so; inside, "gateway" is only the MCP gateway (mcp/).

import type { PolicyRevision } from '@tollgate/engine';

/**
 * The revisions a node may declare. A document may be of a later one (@tollgate/engine's PolicyRevision: 4 with a
 * quorum) that no node of this build decides, so the language gate holds it back.
 */
export type LanguageRevision = 1 | 2 | 3 | 4;

/** The highest revision this build decides: what a node declares unless --language-revision caps it. */
export const LATEST_LANGUAGE_REVISION: LanguageRevision = 4;

/** How often a node says it is still there. */
export const HEARTBEAT_MS = 5_000;

/** A node is live while its last heartbeat is at most this many of its heartbeats old (15 s by default). */
export const WINDOW_HEARTBEATS = 3;

/**
 * For tests only: a shorter heartbeat (in milliseconds) for the nodes this process registers, so a test sees
 * a stopped node's heartbeat expire in a second rather than 15 s. Each row keeps its own heartbeat, so the
 * node reading the registry needs no setting.
 */
export const HEARTBEAT_VARIABLE = 'TOLLGATE_GATEWAY_HEARTBEAT_MS';

/** A node's row of the `gateways` table. */
export interface NodeRow {
  id: string;
  version: string;
  language_revision: LanguageRevision;
  heartbeat_ms: number;
  started_at: string;
  last_seen: string;
}

/** The columns of a node's row, in the table's order. */
export const NODE_COLUMNS = [
  'id',
  'version',
  'language_revision',
  'heartbeat_ms',
  'started_at',
  'last_seen',
] as const satisfies readonly (keyof NodeRow)[];

/** A registered node as the registry lists it (GET /v1/gateways): its row, with whether it is live. */
export interface NodeView extends Omit<NodeRow, 'heartbeat_ms'> {
  live: boolean;
}

/** This process as a registered node; stop() ends its heartbeat and removes its row (a clean shutdown). */
export interface RegisteredNode {
  readonly id: string;
  readonly languageRevision: LanguageRevision;
  stop(): Promise<void>;
}

/** What a process registers as: its version, the revision it decides, its heartbeat (HEARTBEAT_MS unless given). */
export interface NodeOptions {
  version: string;
  languageRevision: LanguageRevision;
  heartbeatMs?: number;
  now?: () => Date;
}

/** Rows of nodes whose heartbeat stopped this long ago are forgotten when a node registers. */
const FORGET_AFTER_MS = 7 * 86_400_000;

/** The last_seen before which a row is forgotten when a node registers at `now`. */
export function forgottenBefore(now: Date): string {
  return new Date(now.getTime() - FORGET_AFTER_MS).toISOString();
}

/** Whether a node is live at `now`: its last heartbeat is within WINDOW_HEARTBEATS of its own heartbeat. */
export function isLive(row: Pick<NodeRow, 'last_seen' | 'heartbeat_ms'>, now: Date): boolean {
  return now.getTime() - Date.parse(row.last_seen) <= row.heartbeat_ms * WINDOW_HEARTBEATS;
}

/** A row as the registry lists it at `now`. */
export function nodeViewOf({ heartbeat_ms, ...row }: NodeRow, now: Date): NodeView {
  return { ...row, live: isLive({ last_seen: row.last_seen, heartbeat_ms }, now) };
}

/**
 * The live nodes that decide a lower language revision than `revision`: a document of that revision must not
 * run while any is (docs/deploy.md). Revision 1 is decided by every node, so it is never held back.
 */
export function laggingNodes(nodes: readonly NodeView[], revision: PolicyRevision): NodeView[] {
  if (revision <= 1) return [];
  return nodes.filter((g) => g.live && g.language_revision < revision);
}

/** The heartbeat of nodes this process registers: HEARTBEAT_MS unless the test variable sets a whole number. */
export function heartbeatFromEnvironment(env: Record<string, string | undefined>): number {
  const text = env[HEARTBEAT_VARIABLE];
  return text !== undefined && /^[1-9][0-9]{0,6}$/.test(text) ? Number(text) : HEARTBEAT_MS;
}
