// The state's generation counters (generations.ts) on SQLite, read together in one statement at most once per turn
// of the event loop, as postgres-query.ts's TurnGenerations reads PostgreSQL's: every request handled in a turn
// arrived before it began, so none was sent after a change the read misses. The key cache (members/sqlite.ts) and
// the authorizations (tools/sqlite.ts) trust what they cached while their counter stands still.
// One statement, not one a counter: each read transaction takes the WAL's read lock, and after the decision log's
// writer thread commits it finds the page cache reset, so a second read cost nearly what the first did
// (docs/performance.md, "Off the event loop").
import type { Db } from './db.ts';
import { generationsSql, STATE_GENERATIONS, type StateGeneration } from './generations.ts';

/** The counters of one database: `read(name)` answers this turn's value; `stale()` makes the next ask read again. */
export interface SqliteTurnRead {
  read(name: StateGeneration): number;
  stale(): void;
}

const NAMES = Object.keys(STATE_GENERATIONS) as StateGeneration[];
const SQL = generationsSql(STATE_GENERATIONS);
const reads = new WeakMap<Db, SqliteTurnRead>();

/**
 * The once-a-turn read of the state's counters, the same object for a database so every caller shares its turn.
 *
 * @example
 * turnRead(db).read('auth');
 */
export function turnRead(db: Db): SqliteTurnRead {
  let counters = reads.get(db);
  if (!counters) {
    counters = countersOf(db.prepare(SQL).raw());
    reads.set(db, counters);
  }
  return counters;
}

function countersOf(statement: { get(): unknown }): SqliteTurnRead {
  let values: number[] = [];
  let fresh = false;
  return {
    read(name) {
      if (!fresh) {
        values = statement.get() as number[];
        fresh = true;
        setImmediate(() => {
          fresh = false;
        });
      }
      return values[NAMES.indexOf(name)] as number;
    },
    stale() {
      fresh = false;
    },
  };
}
