// When the WAL's checkpointer thread (wal-checkpointer.worker.ts) checkpoints: a checkpoint costs two fsyncs whatever
// it copies, and the writer a third as it starts the WAL over, while a log written a few rows a commit rewrites the
// same last pages of each table and index; so a checkpoint waits for ROWS_A_CHECKPOINT rows, or for FEW_ROWS_WAIT_MS
// when fewer come (docs/performance.md, "Checkpoints by rows written").

/**
 * Rows written since the last checkpoint that make the next due at once: below 25,600 a second, a wait of more than
 * one of the thread's 10 ms looks.
 */
export const ROWS_A_CHECKPOINT = 256;

/**
 * How long fewer rows wait for their checkpoint: at a sequential session's pace, a WAL of a few hundred pages at
 * most, far short of the writer's own checkpoint at 1,000.
 */
export const FEW_ROWS_WAIT_MS = 100;

/**
 * Whether a checkpoint is due, from the writer's count of rows written now and at the last checkpoint (32-bit, so
 * they wrap: the rows between are their difference as a 32-bit integer), how long ago that was, and whether it failed.
 *
 * @example
 * checkpointDue(300, 0, 5, false); // true: 300 rows
 * checkpointDue(10, 0, 5, false); // false: 10 rows, 5 ms
 * checkpointDue(10, 0, 120, false); // true: 10 rows that waited 120 ms
 */
export function checkpointDue(rows: number, atLast: number, waitedMs: number, failing: boolean): boolean {
  if (failing) return true;
  const since = (rows - atLast) | 0;
  return since >= ROWS_A_CHECKPOINT || (since !== 0 && waitedMs >= FEW_ROWS_WAIT_MS);
}
