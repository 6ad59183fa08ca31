// The gateway registry (docs/deploy.md, "The language gate"): every process
// that decides calls (`tollgate serve`, each `tollgate mcp`) registers itself with the highest policy language
// revision it decides and a heartbeat, so a write that would make a newer document run can first ask whether
// every live node reads it. Only SQL every database has, so the registry moves with the rest of the state.
import { randomUUID } from 'node:crypto';
import type { Db } from './db.ts';

export type LanguageRevision = 1 | 2 | 3;

/** The highest revision this build decides: what a node declares unless --language-revision caps it. */
export const LATEST_LANGUAGE_REVISION: LanguageRevision = 3;

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

export interface GatewayRow {
  id: string;
  version: string;
  language_revision: LanguageRevision;
  heartbeat_ms: number;
  started_at: string;
  last_seen: string;
}

export interface GatewayView extends Omit<GatewayRow, 'heartbeat_ms'> {
  live: boolean;
}

/** This process as a registered node; stop() ends its heartbeat and removes its row (a clean shutdown). */
export interface GatewayNode {
  readonly id: string;
  readonly languageRevision: LanguageRevision;
  stop(): Promise<void>;
}

/** Rows of nodes whose heartbeat stopped this long ago are forgotten when a node registers. */
const FORGET_AFTER_MS = 7 * 86_400_000;

/** Whether a node is live at `now`: its last heartbeat is within WINDOW_HEARTBEATS of its own heartbeat. */
export function isLive(row: Pick<GatewayRow, 'last_seen' | 'heartbeat_ms'>, now: Date): boolean {
  return now.getTime() - Date.parse(row.last_seen) <= row.heartbeat_ms * WINDOW_HEARTBEATS;
}

/** The heartbeat of nodes this process registers: HEARTBEAT_MS unless the test variable sets a whole number. */
export function heartbeatFromEnvironment(env: Record<string, string | undefined> = process.env): number {
  const text = env[HEARTBEAT_VARIABLE];
  return text !== undefined && /^[1-9][0-9]{0,6}$/.test(text) ? Number(text) : HEARTBEAT_MS;
}

/**
 * Registers this process as a gateway node and keeps its row alive until stop(). The heartbeat upserts, so a
 * row removed by hand comes back; a failed heartbeat (the database busy past its timeout) waits for the next.
 *
 * @example
 * const node = registerGateway(db, { version: '0.1.0', languageRevision: 3 });
 * node.stop(); // on shutdown
 */
export function registerGateway(
  db: Db,
  options: { version: string; languageRevision: LanguageRevision; heartbeatMs?: number; now?: () => Date },
): GatewayNode {
  const id = randomUUID();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const upsert = db.prepare(
    `INSERT INTO gateways (id, version, language_revision, heartbeat_ms, started_at, last_seen) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen`,
  );
  const beat = () => upsert.run(id, options.version, options.languageRevision, heartbeatMs, startedAt, now().toISOString());
  db.prepare('DELETE FROM gateways WHERE last_seen < ?').run(new Date(now().getTime() - FORGET_AFTER_MS).toISOString());
  beat();
  const timer = setInterval(() => {
    try {
      beat();
    } catch {
      // Busy or closing: the next heartbeat tries again, and the window allows for a missed one.
    }
  }, heartbeatMs);
  timer.unref();
  let stopped = false;
  return {
    id,
    languageRevision: options.languageRevision,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      db.prepare('DELETE FROM gateways WHERE id = ?').run(id);
    },
  };
}

/** Every registered node, oldest first, with whether it is live at `now`. */
export function listGateways(db: Db, now: Date = new Date()): GatewayView[] {
  const rows = db.prepare('SELECT * FROM gateways ORDER BY started_at, id').all() as GatewayRow[];
  return rows.map(({ heartbeat_ms, ...row }) => ({ ...row, live: isLive({ last_seen: row.last_seen, heartbeat_ms }, now) }));
}

/**
 * The live nodes that decide a lower language revision than `revision`: a document of that revision must not
 * run while any is (docs/deploy.md). Revision 1 is decided by every node, so it is never held back.
 */
export function laggingGateways(db: Db, revision: LanguageRevision, now: Date = new Date()): GatewayView[] {
  if (revision <= 1) return [];
  return listGateways(db, now).filter((g) => g.live && g.language_revision < revision);
}
