// Rotating the member key secret on a data folder's tollgate.db (model.ts): read, planned, then written in one
// immediate transaction (no other writer between its checks and its writes), each row only where it still holds
// what was read.
import type { Db } from '../db.ts';
import type { CustodialKeys } from '../members/custodial-keys.ts';
import { listNodes } from '../nodes/sqlite.ts';
import { SQLITE_MARK } from '../statement.ts';
import {
  countsOf,
  MEMBER_KEYS,
  ROW_COUNTS,
  type RotationCounts,
  requireNoLiveNode,
  requireSameRows,
  requireWritten,
  resealingOf,
  resealStatements,
  STORED_SECRETS,
} from './model.ts';

/**
 * Seals every custodial key and webhook secret of `db` anew with `to`; throws, writing nothing, when `from` does not
 * open one (SecretMismatchError), a node is live (NodesRunningError) or a row changed meanwhile (RotationConflictError).
 */
export function rotateSqlite(db: Db, from: CustodialKeys, to: CustodialKeys, now: () => Date = () => new Date()): RotationCounts {
  const plan = resealingOf(
    db.prepare(MEMBER_KEYS).all() as { id: string; private_key: string }[],
    db.prepare(STORED_SECRETS).all() as { id: string; secret: string }[],
    from,
    to,
  );
  db.transaction(() => {
    requireNoLiveNode(listNodes(db, now()));
    requireSameRows(plan, db.prepare(ROW_COUNTS).get() as { keys: number; secrets: number });
    for (const s of resealStatements(plan, SQLITE_MARK)) requireWritten(db.prepare(s.sql).run(...s.params).changes, s);
  }).immediate();
  return countsOf(plan);
}
