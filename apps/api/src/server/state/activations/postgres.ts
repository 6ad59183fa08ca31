// Who made a document's version run, on PostgreSQL (model.ts says what is kept; the table is made by
// postgres-migrations.ts).
import { type Queryable, rowsOf } from '../postgres-query.ts';
import { ACTIVATION_COLUMNS, type ActivationRow } from './model.ts';

/** Records one activation. */
export async function recordActivation(on: Queryable, row: ActivationRow): Promise<void> {
  await rowsOf(
    on,
    `INSERT INTO document_activations (${ACTIVATION_COLUMNS.join(', ')}) VALUES ($1, $2, $3, $4, $5)`,
    ACTIVATION_COLUMNS.map((c) => row[c]),
  );
}

/** A document's activations, oldest first. */
export async function activationsOf(on: Queryable, document: string): Promise<ActivationRow[]> {
  return rowsOf<ActivationRow>(on, `SELECT ${ACTIVATION_COLUMNS.join(', ')} FROM document_activations WHERE document = $1 ORDER BY seq`, [
    document,
  ]);
}
