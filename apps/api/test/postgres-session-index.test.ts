// A session's new calls are read by a seek on PostgreSQL as on SQLite (decision-log-indexes.test.ts): the gate reads
// the rows of a session written past the rowid it holds on every call with a session, and the session-calls function
// looks for them again under the session's lock before it writes. Through an index on (agent, session) alone each
// read walked every entry of the session, so a session of 10,000 calls cost each call 10,000 entries. The plans are
// PostgreSQL's own (EXPLAIN) for the very statement the server runs, on a table analysed as autovacuum would.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from '../../../packages/store/test/postgres-fixture.ts';
import { sessionSinceSql } from '../src/server/state/decisions/model.ts';
import { migratePostgres, POSTGRES_STATE_MIGRATIONS } from '../src/server/state/postgres-migrations.ts';
import { POSTGRES_MARK } from '../src/server/state/statement.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(
  `a session's new calls on PostgreSQL${POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : ''}`,
  () => {
    let schema: TestSchema;
    let pool: pg.Pool;

    beforeAll(async () => {
      schema = await freshSchema('session_index');
      pool = new pg.Pool({ connectionString: schema.url, max: 2 });
      await migratePostgres(pool, POSTGRES_STATE_MIGRATIONS);
      // 40,000 calls: one long session of agent-0 with 10,000 among the first 20,000, then 20,000 of other agents
      // (other sessions, or none) written after it, as when a session waits while the gate serves others.
      await pool.query(
        `INSERT INTO decisions (call_id, agent, tool, action, amount, currency, decision, rule, code, versions, arguments,
           arguments_digest, session, created_at)
         SELECT 'c-' || i, CASE WHEN i <= 20000 AND i % 2 = 0 THEN 'agent-0' ELSE 'agent-' || (1 + i % 3) END,
           'issue_refund', 'refund.issue', '50', 'USD', 'allow', 'r', NULL, '{}', '{}', 'd',
           CASE WHEN i <= 20000 AND i % 2 = 0 THEN 'long' WHEN i % 3 = 0 THEN NULL ELSE 's-' || (i % 500) END,
           to_char(timestamp '2026-10-01' + i * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         FROM generate_series(1, 40000) AS i`,
      );
      await pool.query('ANALYZE decisions');
    });
    afterAll(async () => {
      await pool?.end();
      await schema?.drop();
    });

    it('seeks past the rowid held instead of walking the session', async () => {
      const { rows: last } = await pool.query<{ rowid: string }>(
        "SELECT rowid FROM decisions WHERE agent = 'agent-0' AND session = 'long' ORDER BY rowid DESC OFFSET 5 LIMIT 1",
      );
      const since = Number(last[0]?.rowid);
      const { rows } = await pool.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${sessionSinceSql(POSTGRES_MARK)}`, [
        'agent-0',
        'long',
        since,
      ]);
      const nodes = nodesOf(rows[0]?.['QUERY PLAN'][0]?.Plan as PlanNode);
      const scan = nodes.find((n) => n['Index Name'] === 'decisions_by_session_row');
      expect(scan, JSON.stringify(nodes)).toBeDefined();
      expect(scan?.['Index Cond']).toMatch(/rowid > /);
      expect(nodes.some((n) => n['Node Type'] === 'Seq Scan')).toBe(false);
      // The statement still answers the rows past it, oldest first.
      const read = await pool.query<{ call_id: string }>(sessionSinceSql(POSTGRES_MARK), ['agent-0', 'long', since]);
      expect(read.rows.map((r) => r.call_id)).toHaveLength(5);
    });
  },
);
