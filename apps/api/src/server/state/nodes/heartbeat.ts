// Registering a node and keeping it registered (docs/deploy.md, "The language gate"), whichever database keeps
// the registry: long-stopped rows are forgotten, the node's row is written, then rewritten every heartbeat until
// stop() deletes it. The SQL is the store's (sqlite.ts, postgres.ts); this is the one lifecycle both run.
import { randomUUID } from 'node:crypto';
import { forgottenBefore, HEARTBEAT_MS, type NodeOptions, type NodeRow, type RegisteredNode } from './model.ts';

/** The registry's writes for one node, on its store's connection (each may answer at once or later). */
export interface NodeWrites {
  /** Deletes the rows last seen before `cutoff` (an ISO time). */
  forgetBefore(cutoff: string): unknown;
  /** Writes the node's row, or only its last_seen when the row is there (a row removed by hand comes back). */
  upsert(row: NodeRow): unknown;
  /** Deletes the node's row. */
  remove(id: string): unknown;
}

/** A node kept registered: `halt()` stops its heartbeat and leaves its row to expire, as after a crash. */
export interface Heartbeat {
  node: RegisteredNode;
  halt(): void;
}

/**
 * Registers a node and beats until stop(). A failed heartbeat (the database busy or unreachable for a moment)
 * waits for the next: the liveness window allows for a missed one.
 *
 * @example
 * const { node } = await startHeartbeat(writes, { version: '0.1.0', languageRevision: 3 });
 * await node.stop(); // on shutdown
 */
export async function startHeartbeat(writes: NodeWrites, options: NodeOptions): Promise<Heartbeat> {
  const id = randomUUID();
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const now = options.now ?? (() => new Date());
  const startedAt = now().toISOString();
  const beat = async () => {
    await writes.upsert({
      id,
      version: options.version,
      language_revision: options.languageRevision,
      heartbeat_ms: heartbeatMs,
      started_at: startedAt,
      last_seen: now().toISOString(),
    });
  };
  await writes.forgetBefore(forgottenBefore(now()));
  await beat();
  // The heartbeat in flight, so stop() deletes the row after it rather than have it written back.
  let beating: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    beating = beating.then(beat).catch(() => {
      // Busy or unreachable: the next heartbeat tries again.
    });
  }, heartbeatMs);
  timer.unref();
  let stopped: Promise<void> | undefined;
  return {
    node: {
      id,
      languageRevision: options.languageRevision,
      stop: () => {
        stopped ??= (async () => {
          clearInterval(timer);
          await beating;
          await writes.remove(id);
        })();
        return stopped;
      },
    },
    halt: () => clearInterval(timer),
  };
}
