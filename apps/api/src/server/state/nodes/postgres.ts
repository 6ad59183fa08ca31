// The registry of deciding nodes on PostgreSQL (docs/deploy.md, "Several gateways on one data folder: the
// language gate"): the SQL on a pool several nodes share, the rules in model.ts and the heartbeat in
// heartbeat.ts. Liveness is judged by each row's own heartbeat, so every node reading the registry agrees. The
// table keeps its published name, `gateways`.
import type pg from 'pg';
import { placeholders, rowsOf } from '../postgres-query.ts';
import { type Heartbeat, startHeartbeat } from './heartbeat.ts';
import { NODE_COLUMNS, type NodeOptions, type NodeRow, type NodeView, nodeViewOf, type RegisteredNode } from './model.ts';

export class PostgresNodes {
  private readonly pool: pg.Pool;
  /** The heartbeats of the nodes this store registered, halted when it closes. */
  private readonly heartbeats = new Set<Heartbeat>();

  constructor(pool: pg.Pool) {
    this.pool = pool;
  }

  /** Registers a deciding node and keeps its row alive until stop() (or close()). */
  async registerNode(options: NodeOptions): Promise<RegisteredNode> {
    const heartbeat = await startHeartbeat(
      {
        forgetBefore: (cutoff) => rowsOf(this.pool, 'DELETE FROM gateways WHERE last_seen < $1', [cutoff]),
        upsert: (row) =>
          rowsOf(
            this.pool,
            `INSERT INTO gateways (${NODE_COLUMNS.join(', ')}) VALUES (${placeholders(NODE_COLUMNS.length)})
             ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen`,
            NODE_COLUMNS.map((c) => row[c]),
          ),
        remove: (id) => rowsOf(this.pool, 'DELETE FROM gateways WHERE id = $1', [id]),
      },
      options,
    );
    this.heartbeats.add(heartbeat);
    const { node } = heartbeat;
    return {
      id: node.id,
      languageRevision: node.languageRevision,
      stop: () => {
        this.heartbeats.delete(heartbeat);
        return node.stop();
      },
    };
  }

  /** Every registered node, oldest first, with whether it is live at `now`. */
  async listNodes(now: Date = new Date()): Promise<NodeView[]> {
    const rows = await rowsOf<NodeRow>(this.pool, `SELECT ${NODE_COLUMNS.join(', ')} FROM gateways ORDER BY started_at, id`);
    return rows.map((row) => nodeViewOf(row, now));
  }

  /** Halts the heartbeats (their rows stay until they expire, as after a node's crash). */
  close(): void {
    for (const heartbeat of this.heartbeats) heartbeat.halt();
    this.heartbeats.clear();
  }
}
