// The two state stores the contract suite (state-contract*.test.ts) runs against, each opened fresh per test on a
// database of its own, as two instances on it (two nodes for PostgreSQL: two pools; a second connection for
// SQLite), with a raw statement on the second's connection for the changes no StateStore method makes (a key
// deleted, a role changed, as the CLI or a person with psql would). And builders of decision and approval rows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshSchema, POSTGRES_UNREACHABLE } from '../../../packages/store/test/postgres-fixture.ts';
import type { ApprovalRow } from '../src/server/state/approvals/model.ts';
import { openDatabase } from '../src/server/state/db.ts';
import { argumentsDigest } from '../src/server/state/decisions/arguments-digest.ts';
import { newCallId } from '../src/server/state/decisions/call-id.ts';
import type { DecisionRow } from '../src/server/state/decisions/model.ts';
import { migratePostgres, POSTGRES_STATE_MIGRATIONS } from '../src/server/state/postgres-migrations.ts';
import { PostgresStateStore } from '../src/server/state/postgres-state.ts';
import { SqliteStateStore } from '../src/server/state/sqlite-state.ts';
import type { StateStore } from '../src/server/state/state-store.ts';
import { testCustodialKeys } from './custodial-test-keys.ts';

export interface StateFixture {
  /** Two instances on one database: `b` stands for another process or node. */
  a: StateStore;
  b: StateStore;
  /** Runs a statement (`?` placeholders) on b's connection, outside any store method. */
  exec(sql: string, params?: unknown[]): Promise<void>;
  /**
   * The instances a session's concurrent decisions are spread over: both nodes on PostgreSQL; one on SQLite, whose
   * history reads its own process's queued decisions (sqlite-state.ts) and is one process's by design.
   */
  sessionNodes: StateStore[];
  close(): Promise<void>;
}

export interface StateBackend {
  name: 'sqlite' | 'postgres';
  /** Why this backend's cases are skipped, or undefined. */
  skip: string | undefined;
  open(): Promise<StateFixture>;
}

const sqlite: StateBackend = {
  name: 'sqlite',
  skip: undefined,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-state-'));
    const path = join(dir, 'tollgate.db');
    const a = new SqliteStateStore(openDatabase(path), testCustodialKeys());
    const b = new SqliteStateStore(openDatabase(path), testCustodialKeys());
    return {
      a,
      b,
      async exec(sql, params = []) {
        b.db.prepare(sql).run(...params);
      },
      sessionNodes: [a],
      async close() {
        await a.close();
        await b.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const postgres: StateBackend = {
  name: 'postgres',
  skip: POSTGRES_UNREACHABLE,
  async open() {
    const schema = await freshSchema('state');
    const poolA = new pg.Pool({ connectionString: schema.url, max: 8 });
    const poolB = new pg.Pool({ connectionString: schema.url, max: 8 });
    await migratePostgres(poolA, POSTGRES_STATE_MIGRATIONS);
    const a = await PostgresStateStore.open(poolA, testCustodialKeys());
    const b = await PostgresStateStore.open(poolB, testCustodialKeys());
    return {
      a,
      b,
      async exec(sql, params = []) {
        let n = 0;
        await poolB.query(
          sql.replace(/\?/g, () => `$${++n}`),
          params,
        );
      },
      sessionNodes: [a, b],
      async close() {
        await a.close();
        await b.close();
        await poolA.end();
        await poolB.end();
        await schema.drop();
      },
    };
  },
};

export const BACKENDS: readonly StateBackend[] = [sqlite, postgres];

/** The suite's title: the backend, and why it is skipped when it is. */
export function titleOf(backend: StateBackend): string {
  return backend.skip === undefined ? `${backend.name} state store` : `${backend.name} state store (skipped: ${backend.skip})`;
}

/** A turn of the event loop: a request sent after a change arrives at least this much later. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A decision row, `allow` by default, created at `at`. */
export function decisionRow(over: Partial<DecisionRow> & { at?: Date } = {}): DecisionRow {
  const { at = new Date(), ...rest } = over;
  const args = { n: 1 };
  return {
    call_id: newCallId(at.getTime()),
    agent: 'agent-a',
    tool: 'refund',
    action: 'refund.issue',
    amount: null,
    currency: null,
    decision: 'allow',
    rule: null,
    code: null,
    versions: JSON.stringify({ 'policies/a.yaml': 1 }),
    arguments: JSON.stringify(args),
    arguments_digest: argumentsDigest(args),
    session: null,
    created_at: at.toISOString(),
    shadow_differences: null,
    via: 'http',
    ...rest,
  };
}

/** A pending approval request for `row`, expiring `ttlMs` after it was made. */
export function approvalRow(row: DecisionRow, approvers: string[], ttlMs = 3_600_000): ApprovalRow {
  return {
    id: `apr_${row.call_id}`,
    call_id: row.call_id,
    agent: row.agent,
    tool: row.tool,
    arguments_digest: row.arguments_digest,
    policy_document: 'policies/a.yaml',
    policy_sequence: 1,
    rule: 'big-refunds',
    description: null,
    approvers: JSON.stringify(approvers),
    status: 'pending',
    expires_at: new Date(Date.parse(row.created_at) + ttlMs).toISOString(),
    decided_by: null,
    decided_at: null,
    reason: null,
    signature: null,
    signed_content: null,
    proof: null,
    quorum: 1,
    claimed_at: null,
    created_at: row.created_at,
  };
}

/** Records a held call (its row `hold`, with an approval request) and returns the request. */
export async function holdCall(
  state: StateStore,
  approvers: string[],
  over: Partial<DecisionRow> & { at?: Date } = {},
): Promise<ApprovalRow> {
  const row = decisionRow({ decision: 'hold', ...over });
  const approval = approvalRow(row, approvers);
  await state.recordDecision(row.agent, row.session ?? undefined, () => ({ row, approval }));
  return approval;
}
