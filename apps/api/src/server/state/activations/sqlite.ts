// Who made a document's version run, on SQLite (model.ts says what is kept; the table is made by db.ts).
import type { Db } from '../db.ts';
import { ACTIVATION_COLUMNS, type ActivationRow } from './model.ts';

/** Records one activation. */
export function recordActivation(db: Db, row: ActivationRow): void {
  db.prepare(`INSERT INTO document_activations (${ACTIVATION_COLUMNS.join(', ')}) VALUES (?, ?, ?, ?, ?)`).run(
    ...ACTIVATION_COLUMNS.map((c) => row[c]),
  );
}

/** A document's activations, oldest first. */
export function activationsOf(db: Db, document: string): ActivationRow[] {
  return db
    .prepare(`SELECT ${ACTIVATION_COLUMNS.join(', ')} FROM document_activations WHERE document = ? ORDER BY seq`)
    .all(document) as ActivationRow[];
}
