// A decision's record entry from the head it follows, as values of the record_entries table (writer.ts,
// entryValues): the one definition of what RecordWriter.append makes for a decision, for the decision log's writer
// thread, which chains the decisions it writes while nobody listens for entries as they are made
// (state/decisions/sqlite-log.ts), and for the log's own recovery when that thread is gone. Pure but for hashing.
import type { DecisionRow } from '../state/decisions/model.ts';
import { formWithBody, sha256 } from './chain-form.ts';
import { decisionBodyText } from './entries.ts';

/** Where a writer's chain stands: the seq and hash of its newest entry (0 and GENESIS before any). */
export interface HeadPlace {
  seq: number;
  hash: string;
}

/**
 * The entry of `row` after `head` in `writer`'s chain, as record_entries values (writer, seq, kind, at, ref, body,
 * prev, hash), the body left empty as entryValues leaves a decision's (its row is the body).
 */
export function decisionEntryValues(writer: string, head: HeadPlace, row: DecisionRow): unknown[] {
  const seq = head.seq + 1;
  const at = row.created_at;
  const hash = sha256(formWithBody({ writer, seq, kind: 'decision', at, prev: head.hash }, decisionBodyText(row)));
  return [writer, seq, 'decision', at, row.call_id, '', head.hash, hash];
}

/** The place an entry's values (decisionEntryValues, entryValues) leave the chain at. */
export function placeOf(values: readonly unknown[]): HeadPlace {
  return { seq: values[1] as number, hash: values[7] as string };
}
