// The gateway registry on PostgreSQL, as gateways.ts keeps it in SQLite (docs/deploy.md, "Several gateways on
// one data folder: the language gate"): each node upserts its row on a heartbeat and deletes it when it stops;
// liveness is judged by each row's own heartbeat (isLive), so every node reading the registry agrees.
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type GatewayNode, type GatewayRow, type GatewayView, HEARTBEAT_MS, isLive, type LanguageRevision } from './gateways.ts';
import { rowsOf } from './postgres-query.ts';

/** Rows of nodes whose heartbeat stopped this long ago are forgotten when a node registers (as gateways.ts). */
const FORGET_AFTER_MS = 7 * 86_400_000;

export class PostgresGateways {
  private readonly pool: pg.Pool;
  /** The heartbeats of the nodes this store registered, stopped when it closes. */
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  async register(options: {
    version: string;
    languageRevision: LanguageRevision;
    heartbeatMs?: number;
    now?: () => Date;
  }): Promise<GatewayNode> {
    const id = randomUUID();
    const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
    const now = options.now ?? (() => new Date());
    const startedAt = now().toISOString();
    const beat = () =>
      rowsOf(
        this.pool,
        `INSERT INTO gateways (id, version, language_revision, heartbeat_ms, started_at, last_seen) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen`,
        [id, options.version, options.languageRevision, heartbeatMs, startedAt, now().toISOString()],
      ).then(() => undefined);
    await rowsOf(this.pool, 'DELETE FROM gateways WHERE last_seen < $1', [new Date(now().getTime() - FORGET_AFTER_MS).toISOString()]);
    await beat();
    // The heartbeat in flight, so stop() deletes the row after it rather than have it written back.
    let beating: Promise<void> = Promise.resolve();
    const timer = setInterval(() => {
      beating = beating.then(beat).catch(() => {
        // Unreachable for a moment: the next heartbeat tries again, and the window allows for a missed one.
      });
    }, heartbeatMs);
    timer.unref();
    this.timers.add(timer);
    let stopped: Promise<void> | undefined;
    return {
      id,
      languageRevision: options.languageRevision,
      stop: () => {
        stopped ??= (async () => {
          clearInterval(timer);
          this.timers.delete(timer);
          await beating;
          await rowsOf(this.pool, 'DELETE FROM gateways WHERE id = $1', [id]);
        })();
        return stopped;
      },
    };
  }

  /** Every registered node, oldest first, with whether it is live at `now`. */
  async list(now: Date = new Date()): Promise<GatewayView[]> {
    const rows = await rowsOf<GatewayRow>(
      this.pool,
      'SELECT id, version, language_revision, heartbeat_ms, started_at, last_seen FROM gateways ORDER BY started_at, id',
    );
    return rows.map(({ heartbeat_ms, ...row }) => ({ ...row, live: isLive({ last_seen: row.last_seen, heartbeat_ms }, now) }));
  }

  /** Stops the heartbeats (their rows stay until they expire, as after a node's crash). */
  close(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
  }
}
