// What only the PostgreSQL state store promises beyond the contract (state-contract*.test.ts): the migration
// runner (steps in order, once, under a lock, each in its own transaction), and the decision log's
// acknowledged-means-written (state/decisions/postgres-log.ts): a decision whose write fails is refused to its caller, and
// close() writes what is queued without ending the caller's pool.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { migratePostgres, POSTGRES_STATE_MIGRATIONS, schemaVersionOf } from '../src/server/state/postgres-migrations.ts';
import { PostgresStateStore } from '../src/server/state/postgres-state.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';
import { decisionRow } from './state-contract-backends.ts';

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(
  `PostgreSQL state store${POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : ''}`,
  () => {
    let schema: TestSchema;
    let pools: pg.Pool[] = [];
    const pool = () => {
      const p = new pg.Pool({ connectionString: schema.url, max: 6 });
      pools.push(p);
      return p;
    };

    beforeAll(async () => {
      schema = await freshSchema('pgstate');
    });
    afterAll(async () => {
      await Promise.all(pools.map((p) => p.end()));
      pools = [];
      await schema?.drop();
    });

    it('applies each migration step once, in order, when two nodes start at once', async () => {
      const [one, two] = [pool(), pool()];
      expect(await schemaVersionOf(one)).toBe(0);
      const runs = await Promise.all([migratePostgres(one, POSTGRES_STATE_MIGRATIONS), migratePostgres(two, POSTGRES_STATE_MIGRATIONS)]);
      const all = POSTGRES_STATE_MIGRATIONS.map((_, i) => i + 1);
      expect(runs.map((r) => r.applied).sort((x, y) => y.length - x.length)).toEqual([all, []]);
      expect(await schemaVersionOf(two)).toBe(POSTGRES_STATE_MIGRATIONS.length);

      // The list is the caller's: a step added after the state's is applied alone; a failing one leaves nothing.
      const extra = [...POSTGRES_STATE_MIGRATIONS, 'CREATE TABLE extra_step (x INTEGER)'];
      expect(await migratePostgres(one, extra)).toEqual({ applied: [extra.length] });
      await expect(
        migratePostgres(one, [...extra, 'CREATE TABLE half_done (x INTEGER); CREATE TABLE broken (x no_such_type)']),
      ).rejects.toThrow(/no_such_type/);
      expect(await schemaVersionOf(one)).toBe(extra.length);
      expect((await one.query("SELECT to_regclass('half_done') AS t")).rows[0].t).toBeNull();
    });

    it('refuses a decision whose write failed, and acknowledges only written ones', async () => {
      const state = new PostgresStateStore(pool(), testCustodialKeys());
      const row = decisionRow();
      await state.recordDecision(row.agent, undefined, () => ({ row }));
      const again = { ...decisionRow(), call_id: row.call_id };
      await expect(state.recordDecision(row.agent, undefined, () => ({ row: again }))).rejects.toThrow(/duplicate key/);
      await expect(state.recordDecision(row.agent, 's', () => ({ row: { ...again, session: 's' } }))).rejects.toThrow(/duplicate key/);
      expect(await state.sessionHistory(row.agent, 's')).toEqual([]);
      // In a batch, the row the table refuses fails its own call only.
      const batch = [decisionRow(), { ...decisionRow(), call_id: row.call_id }, decisionRow()];
      const outcomes = await Promise.allSettled(batch.map((r) => state.recordDecision(r.agent, undefined, () => ({ row: r }))));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await state.countDecisions()).toBe(3);
      await state.close();
    });

    it('group-commits calls without a session, and close() writes what is queued without ending the pool', async () => {
      const own = pool();
      const state = new PostgresStateStore(own, testCustodialKeys());
      const before = await state.countDecisions();
      const rows = Array.from({ length: 1000 }, () => decisionRow({ agent: 'batched' }));
      await Promise.all(rows.map((row) => state.recordDecision(row.agent, undefined, () => ({ row }))));
      // Rows committed together share their transaction id: 1000 calls of one turn are 4 batches of at most 256.
      const batches = await own.query(
        "SELECT count(DISTINCT xmin::text)::int AS n, count(*)::int AS rows FROM decisions WHERE agent = 'batched'",
      );
      expect(batches.rows[0]).toEqual({ n: 4, rows: 1000 });
      const queued = Array.from({ length: 10 }, () => decisionRow({ agent: 'at-close' }));
      const acknowledged = queued.map((row) => state.recordDecision(row.agent, undefined, () => ({ row })));
      await state.close();
      await Promise.all(acknowledged);
      const other = new PostgresStateStore(pool(), testCustodialKeys());
      expect(await other.countDecisions()).toBe(before + 1010);
      expect((await own.query('SELECT 1 AS one')).rows[0].one, 'the pool is still open').toBe(1);
    });
  },
);
