// Who made a document's version run, the model its SQLite and PostgreSQL stores share (sqlite.ts, postgres.ts). The
// versions live in the document store, which keeps each version's author; the member who activated one (activate,
// revert, a rule set's active version) is state beside it, so a version's history names both people under four eyes
// (docs/security.md, "Four eyes"). Written just after the store's activation: a crash between the two leaves that
// activation without its row, never a row for an activation that did not happen.

/** One activation of a version by a member. */
export interface ActivationRow {
  document: string;
  sequence: number;
  member_id: string;
  member_name: string;
  /** ISO 8601, UTC. */
  activated_at: string;
}

/** The columns, in the table's order. */
export const ACTIVATION_COLUMNS = ['document', 'sequence', 'member_id', 'member_name', 'activated_at'] as const;

/**
 * The latest activation of each version, from a document's rows oldest first: the one a history shows.
 *
 * @example
 * latestActivations([{ sequence: 2, member_name: 'ana', ... }, { sequence: 2, member_name: 'bo', ... }]).get(2)?.member_name // 'bo'
 */
export function latestActivations(rows: readonly ActivationRow[]): Map<number, ActivationRow> {
  const out = new Map<number, ActivationRow>();
  for (const row of rows) out.set(row.sequence, row);
  return out;
}
