// The messages between the editor and its check worker, and the handler that answers them (in the worker,
// or on the main thread when no worker can start).
import { createSheetCache, type LintCatalogue } from '@tollgate/engine';
import { checkDocument, type DocumentCheck } from './check-document.ts';

/** Check `text` as document `id`. `catalogue`, when present, replaces the one kept from earlier requests. */
export interface CheckRequest {
  seq: number;
  id: string;
  text: string;
  catalogue?: LintCatalogue | null;
}

/** The check of request `seq`, or why it could not be made (a bug in the engine: it throws for nothing else). */
export type CheckReply = { seq: number; check: DocumentCheck } | { seq: number; failure: string };

/**
 * A handler that keeps the catalogue and a sheet cache between requests, so a keystroke re-reads one rule.
 *
 * @example
 * const answer = createCheckHandler();
 * answer({ seq: 1, id: 'sheets/a.rules.yaml', text: 'rules: []\n' }) // { seq: 1, check: { kind: 'sheet', ... } }
 */
export function createCheckHandler(): (request: CheckRequest) => CheckReply {
  const cache = createSheetCache();
  let catalogue: LintCatalogue | undefined;
  return (request) => {
    if (request.catalogue !== undefined) catalogue = request.catalogue ?? undefined;
    try {
      return { seq: request.seq, check: checkDocument(request.id, request.text, catalogue, cache) };
    } catch (error) {
      return { seq: request.seq, failure: error instanceof Error ? error.message : String(error) };
    }
  };
}
