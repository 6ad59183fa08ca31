// Rows of the documents table as PostgresDocumentStore's writes use them (postgres-store.ts): a document's index
// locked and read under the row's lock, written back, and a write's precondition checked under that lock. Kept
// apart so the store's module reads as its operations.
import type pg from 'pg';
import { idProblem } from './document-id.ts';
import { checkPrecondition, type DocumentIndex, emptyIndex } from './document-index.ts';
import { type Precondition, StoreError } from './types.ts';

/** The index of a document with none stored: the row exists only inside a write's transaction. */
export const EMPTY_INDEX = JSON.stringify(emptyIndex());

/**
 * Checks a write's precondition under the document's row lock, held to the end of the transaction. The row is
 * locked even when the document has no version yet, so a save cannot slip in before the write commits.
 */
export async function lockPrecondition(client: pg.ClientBase, ifMatch: Precondition): Promise<void> {
  const problem = idProblem(ifMatch.id);
  if (problem) throw new StoreError('invalid_id', `${JSON.stringify(ifMatch.id)}: ${problem}`);
  await client.query('INSERT INTO documents (id, index_json) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [ifMatch.id, EMPTY_INDEX]);
  const index = await lockIndex(client, ifMatch.id);
  checkPrecondition(index.versions.length > 0 ? index : undefined, ifMatch.id, ifMatch.newest);
  if (index.next === 1) await client.query('DELETE FROM documents WHERE id = $1', [ifMatch.id]);
}

/** Locks the document's row (inserted beforehand by a save) and reads its index under the lock; an index with nothing ever stored when there is no row. */
export async function lockIndex(client: pg.ClientBase, id: string): Promise<DocumentIndex> {
  const result = await client.query<{ index_json: string }>('SELECT index_json FROM documents WHERE id = $1 FOR UPDATE', [id]);
  const row = result.rows[0];
  return row ? parseIndex(id, row.index_json) : emptyIndex();
}

export async function writeIndex(client: pg.ClientBase, id: string, index: DocumentIndex): Promise<void> {
  await client.query('UPDATE documents SET index_json = $2, running = $3 WHERE id = $1', [id, JSON.stringify(index), index.running]);
}

export function parseIndex(id: string, text: string): DocumentIndex {
  try {
    const index = JSON.parse(text) as DocumentIndex;
    if (Number.isSafeInteger(index.next) && Array.isArray(index.versions) && Array.isArray(index.activations)) return index;
  } catch {
    // Reported below, as any index of the wrong shape.
  }
  throw new StoreError('damaged', `the index of ${id} in the documents table cannot be read`);
}
