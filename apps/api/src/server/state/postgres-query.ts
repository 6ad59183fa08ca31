// Small parts every PostgreSQL state module shares: queries whose BIGINT columns (counts, rowids, counters) read
// as numbers, as SQLite gives them; and the generation counters, read once and shared by the requests it can
// answer (TurnGenerations).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { generationsSql } from './generations.ts';
import { arrivalOfRequest, lastArrival } from './request-arrival.ts';

/** Where a query runs: the pool, or a connection holding a transaction. */
export type Queryable = pg.Pool | pg.PoolClient;

const INT8_OID = 20;

// Per query, so a pool given by the caller keeps its own parsers for its other users.
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (text: string) => Number(text)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

/** The rows a statement returns, BIGINTs as numbers. */
export async function rowsOf<R>(on: Queryable, text: string, values: readonly unknown[] = []): Promise<R[]> {
  const result = await on.query({ text, values: values as unknown[], types: TYPES });
  return result.rows as R[];
}

/** Statement names by text: a name stands for one text on every connection (pg refuses one name for two). */
const NAMES = new Map<string, string>();

/**
 * The rows of a statement on the gate's path, prepared once per connection under a name of its text's digest: the
 * server parses and plans it once, not on every call (docs/performance.md, "The cluster suite"). Behind a pooler
 * in transaction mode this needs one that keeps prepared statements (docs/deploy.md, "Sizing").
 */
export async function preparedRowsOf<R>(on: Queryable, text: string, values: readonly unknown[] = []): Promise<R[]> {
  let name = NAMES.get(text);
  if (name === undefined) {
    name = `tollgate_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    NAMES.set(text, name);
  }
  const result = await on.query({ name, text, values: values as unknown[], types: TYPES });
  return result.rows as R[];
}

/** How many rows a statement changed. */
export async function changesOf(on: Queryable, text: string, values: readonly unknown[] = []): Promise<number> {
  const result = await on.query({ text, values: values as unknown[], types: TYPES });
  return result.rowCount ?? 0;
}

/** `$from, $from+1, ...` for `count` values: the placeholders of one row of a multi-row statement. */
export function placeholders(count: number, from = 1): string {
  return Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');
}

/** Something read as a number at most once per turn of the event loop; `stale()` makes the next ask read again. */
export interface TurnRead {
  read(): Promise<number>;
  stale(): void;
}

/**
 * The generation counters a node checks before trusting what it cached (keys and members, authorizations, and on a
 * node the documents), read together in one statement and shared: by every request handled in the turn of the
 * event loop the read is sent in (each arrived before the turn began, so none was sent after a change the read
 * misses), and by every request that arrived before it was sent (request-arrival.ts), so a request's later
 * questions are answered by the read its first one waited for. One round trip a request at most, instead of one
 * per counter and step (docs/performance.md, "The cluster suite").
 */
export class TurnGenerations {
  private readonly pool: pg.Pool;
  private readonly sql: string;
  private reading: Promise<Record<string, number>> | undefined;
  /** The newest read, and the number of the last request that arrived before it was sent. */
  private latest: { after: number; reading: Promise<Record<string, number>> } | undefined;

  /** `counters` names each counter by the statement that reads it (one row, one column named generation). */
  constructor(pool: pg.Pool, counters: Record<string, string>) {
    this.pool = pool;
    this.sql = generationsSql(counters);
  }

  /** One counter of the set, read with the others. */
  counter(name: string): TurnRead {
    return {
      read: async () => {
        const value = (await this.readAll())[name];
        if (value === undefined) throw new Error(`no generation counter ${name}`);
        return value;
      },
      stale: () => {
        this.reading = undefined;
        this.latest = undefined;
      },
    };
  }

  private readAll(): Promise<Record<string, number>> {
    if (this.reading) return this.reading;
    const asking = arrivalOfRequest();
    if (asking !== undefined && this.latest !== undefined && this.latest.after >= asking) return this.latest.reading;
    const reading = preparedRowsOf<Record<string, number>>(this.pool, this.sql).then((rows) => rows[0] ?? {});
    this.reading = reading;
    this.latest = { after: lastArrival(), reading };
    setImmediate(() => {
      if (this.reading === reading) this.reading = undefined;
    });
    // A failed read is shared no further; its callers see the failure.
    reading.catch(() => {
      if (this.reading === reading) this.reading = undefined;
      if (this.latest?.reading === reading) this.latest = undefined;
    });
    return reading;
  }
}
