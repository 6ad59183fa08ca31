// The registry of deciding nodes in SQLite (docs/deploy.md, "The language gate"): the SQL on the one
// better-sqlite3 connection, the rules in model.ts and the heartbeat in heartbeat.ts. Only SQL every database
// has, so the registry moves with the rest of the state. The table keeps its published name, `gateways`.
import type { Db } from '../db.ts';
import { startHeartbeat } from './heartbeat.ts';
import { type NodeOptions, type NodeRow, type NodeView, nodeViewOf, type RegisteredNode } from './model.ts';

/**
 * Registers this process as a deciding node and keeps its row alive until stop().
 *
 * @example
 * const node = await registerNode(db, { version: '0.1.0', languageRevision: 3 });
 * await node.stop(); // on shutdown
 */
export async function registerNode(db: Db, options: NodeOptions): Promise<RegisteredNode> {
  const upsert = db.prepare(
    `INSERT INTO gateways (id, version, language_revision, heartbeat_ms, started_at, last_seen)
     VALUES (@id, @version, @language_revision, @heartbeat_ms, @started_at, @last_seen)
     ON CONFLICT (id) DO UPDATE SET last_seen = excluded.last_seen`,
  );
  const { node } = await startHeartbeat(
    {
      forgetBefore: (cutoff) => db.prepare('DELETE FROM gateways WHERE last_seen < ?').run(cutoff),
      upsert: (row) => upsert.run(row),
      remove: (id) => db.prepare('DELETE FROM gateways WHERE id = ?').run(id),
    },
    options,
  );
  return node;
}

/** Every registered node, oldest first, with whether it is live at `now`. */
export function listNodes(db: Db, now: Date = new Date()): NodeView[] {
  const rows = db.prepare('SELECT * FROM gateways ORDER BY started_at, id').all() as NodeRow[];
  return rows.map((row) => nodeViewOf(row, now));
}
