// A generation counter of the SQLite state read at most once per turn of the event loop, as postgres-query.ts's
// TurnGenerations reads PostgreSQL's: every request handled in a turn arrived before it began, so none was sent
// after a change the read misses. The key cache (members/sqlite.ts) and the authorizations (tools/sqlite.ts)
// trust what they cached while their counter stands still.
import type { Db } from './db.ts';

/** One counter of one database: `read()` answers this turn's value; `stale()` makes the next ask read again. */
export interface SqliteTurnRead {
  read(): number;
  stale(): void;
}

const reads = new WeakMap<Db, Map<string, SqliteTurnRead>>();

/**
 * The once-a-turn read of the counter `sql` selects (one row, one column), the same object for a database and
 * statement so every caller shares its turn.
 *
 * @example
 * turnRead(db, 'SELECT generation FROM auth_generation WHERE id = 1').read();
 */
export function turnRead(db: Db, sql: string): SqliteTurnRead {
  let ofDb = reads.get(db);
  if (!ofDb) {
    ofDb = new Map();
    reads.set(db, ofDb);
  }
  let counter = ofDb.get(sql);
  if (!counter) {
    counter = counterOf(db.prepare(sql).pluck());
    ofDb.set(sql, counter);
  }
  return counter;
}

function counterOf(statement: { get(): unknown }): SqliteTurnRead {
  let value = -1;
  let fresh = false;
  return {
    read() {
      if (!fresh) {
        value = statement.get() as number;
        fresh = true;
        setImmediate(() => {
          fresh = false;
        });
      }
      return value;
    },
    stale() {
      fresh = false;
    },
  };
}
