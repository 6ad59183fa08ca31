// The decision log's reads are index lookups whatever its length: a read that scanned or sorted the
// whole log would stall the gate's event loop for a second at a million decisions. The plans are
// SQLite's own (EXPLAIN QUERY PLAN) for the very statements the server runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/server/state/db.ts';
import type { DecisionFilter } from '../src/server/state/decisions/model.ts';
import {
  FORGET_ARGUMENTS_SQL,
  listDecisionsQuery,
  recordedDecisionsQuery,
  SESSION_HISTORY_SINCE_SQL,
  SESSION_HISTORY_SQL,
  sessionHistory,
} from '../src/server/state/decisions/sqlite.ts';

let dir: string;
let db: Db;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-indexes-'));
  db = openDatabase(join(dir, 'tollgate.db'));
  // Rows spread over agents, sessions and a month.
  // Columns named, so a column added later (via, and any after it) keeps its default.
  const insert = db.prepare(
    'INSERT INTO decisions (call_id, agent, tool, action, amount, currency, decision, rule, code, versions, arguments, arguments_digest, session, created_at, shadow_differences) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)',
  );
  const start = Date.parse('2026-10-01T00:00:00Z');
  db.transaction(() => {
    for (let i = 0; i < 20_000; i++) {
      const at = new Date(start + i * 120_000).toISOString();
      const session = i % 3 === 0 ? null : `s-${i % 500}`;
      // The older three quarters were swept already: their arguments are gone, as in a log past retention.
      const args = i < 15_000 ? null : '{}';
      // One call in a hundred had a shadowed rule file's candidate give another verdict.
      const shadow = i % 100 === 0 ? '[]' : null;
      insert.run(
        `c-${i}`,
        `agent-${i % 4}`,
        'issue_refund',
        'refund.issue',
        '50',
        'USD',
        'allow',
        'r',
        null,
        '{}',
        args,
        'd',
        session,
        at,
        shadow,
      );
    }
  })();
  // No ANALYZE: the server never runs it, so the plans are the planner's without statistics.
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** SQLite's plan for a statement, one line per step. */
function planOf(sql: string, params: readonly unknown[]): string {
  const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
  return rows.map((r) => r.detail).join('\n');
}

/** A plan that reads the decisions through an index and neither scans the table nor sorts it. */
function expectIndexed(plan: string, index: string): void {
  expect(plan).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}\\b`));
  expect(plan).not.toMatch(/SCAN decisions(?! USING)/);
  expect(plan).not.toContain('TEMP B-TREE');
}

const LIMIT = { limit: 100 };
const SINCE = '2026-10-20T00:00:00.000Z';
const UNTIL = '2026-10-25T00:00:00.000Z';

describe('the decision log reads by index', () => {
  const lists: [string, DecisionFilter, string][] = [
    ['the newest decisions', LIMIT, 'decisions_by_time'],
    ["an agent's newest decisions", { ...LIMIT, agent: 'agent-1' }, 'decisions_by_agent'],
    ['the newest since a time', { ...LIMIT, since: SINCE }, 'decisions_by_time'],
    ['the newest between two times', { ...LIMIT, since: SINCE, until: UNTIL }, 'decisions_by_time'],
    ["an agent's newest since a time", { ...LIMIT, agent: 'agent-1', since: SINCE }, 'decisions_by_agent'],
    ['the newest with shadow differences', { ...LIMIT, shadowDiffers: true }, 'decisions_with_shadow_differences'],
  ];
  for (const [what, filter, index] of lists) {
    it(`lists ${what}`, () => {
      const { sql, params } = listDecisionsQuery(filter);
      expectIndexed(planOf(sql, params), index);
    });
    it(`reads the recorded calls of ${what.replace('the newest', 'all').replace('newest ', '')} for a simulation`, () => {
      const { sql, params } = recordedDecisionsQuery(filter);
      expectIndexed(planOf(sql, params), index);
    });
  }

  const AFTER = { createdAt: SINCE, rowid: 9000 };
  for (const [what, filter, index] of [
    ['the page after a cursor', { ...LIMIT, after: AFTER }, 'decisions_by_time'],
    ["an agent's page after a cursor", { ...LIMIT, agent: 'agent-1', after: AFTER }, 'decisions_by_agent'],
  ] as const) {
    it(`lists ${what}`, () => {
      const { sql, params } = listDecisionsQuery(filter);
      expectIndexed(planOf(sql, params), index);
    });
  }

  it("reads a session's history", () => {
    expectIndexed(planOf(SESSION_HISTORY_SQL, ['agent-1', 's-7']), 'decisions_by_session');
    // The gate reads only what was written since it last asked: a seek past the rowid, not a walk over the session.
    const since = planOf(SESSION_HISTORY_SINCE_SQL, ['agent-1', 's-7', 9000]);
    expectIndexed(since, 'decisions_by_session_row');
    expect(since).toContain('rowid>?');
    // And it is the history: allowed calls of that agent and session, oldest first.
    const history = sessionHistory(db, 'agent-1', 's-1');
    expect(history.length).toBeGreaterThan(0);
    expect(history.length).toBe(
      (db.prepare("SELECT count(*) AS n FROM decisions WHERE agent = 'agent-1' AND session = 's-1'").get() as { n: number }).n,
    );
  });

  it('sweeps only the decisions that still hold arguments', () => {
    expectIndexed(planOf(FORGET_ARGUMENTS_SQL, [SINCE]), 'decisions_with_arguments');
  });
});
