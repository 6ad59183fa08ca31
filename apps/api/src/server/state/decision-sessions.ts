// Sessions' histories as read so far on PostgreSQL (postgres-decision-log.ts): each written call is read and
// parsed once, and later reads fetch only the rows above the highest rowid seen. That is exact because every row
// of a session is written under the session's lock, so the rows committed are always the lowest rowids of it: a
// row at or below the highest seen is one already held (a read racing another may fetch it twice; it is kept once).
import type { SessionCall } from './decisions.ts';
import { readStoredJson } from './stored-json.ts';

/** A session row as the incremental read returns it. */
export interface SessionRow {
  rowid: number;
  call_id: string;
  tool: string;
  arguments: string | null;
  created_at: string;
}

interface ReadSession {
  calls: { created_at: string; call: SessionCall }[];
  rowid: number;
}

/** At most this many sessions' histories are kept; the one least recently asked for goes first. */
const MAX_SESSIONS = 1024;

export class SessionCalls {
  private readonly byKey = new Map<string, ReadSession>();

  /** The session's calls, oldest first: those held, and the rows `since(highest rowid held)` returns. */
  async read(agent: string, session: string, since: (rowid: number) => Promise<SessionRow[]>): Promise<SessionCall[]> {
    const key = JSON.stringify([agent, session]);
    const held = this.byKey.get(key) ?? { calls: [], rowid: 0 };
    this.byKey.delete(key);
    this.byKey.set(key, held);
    if (this.byKey.size > MAX_SESSIONS) this.byKey.delete(this.byKey.keys().next().value as string);
    const fresh = await since(held.rowid);
    const known = held.rowid;
    for (const r of fresh) {
      if (r.rowid <= known) continue;
      held.rowid = Math.max(held.rowid, r.rowid);
      const entry = { created_at: r.created_at, call: sessionCall(r) };
      // A call decided earlier on a node whose clock is behind goes in its place, as ORDER BY created_at puts it.
      let at = held.calls.length;
      while (at > 0 && (held.calls[at - 1] as { created_at: string }).created_at > r.created_at) at--;
      held.calls.splice(at, 0, entry);
    }
    return held.calls.map((c) => c.call);
  }

  /** Forgets every history (their arguments may have been forgotten in the table). */
  clear(): void {
    this.byKey.clear();
  }
}

function sessionCall(r: { tool: string; arguments: string | null }): SessionCall {
  return r.arguments === null ? { tool: r.tool } : { tool: r.tool, arguments: readStoredJson(r.arguments) };
}
