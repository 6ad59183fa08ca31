// What passes through the edit seam: the proposed edit, its outcome and the validators' contract. Its own
// module so the seam (edit-seam.ts) and the writers (writers.ts) both import it and neither imports the other.
import type { Code, Diagnostic } from '@tollgate/engine';
import type { Author, DocumentVersion } from '../types.ts';

export interface ProposedEdit {
  kind: 'document';
  /** The document's id: its path in the store. */
  document: string;
  content: string;
  author: Author;
  reason: string;
  /** The version the text was written from; left out, the version running now. */
  basedOn?: number | null;
  /** The newest stored sequence the author read (an entity tag); the store refuses the save unless it still is. */
  ifMatch?: number | null;
}

export type EditStatus = 'applied' | 'saved_not_running' | 'refused' | 'rejected' | 'conflict';

/** What an edit widens, by the analyser of its document's kind. */
export interface EditImpact {
  widensSecurity: boolean;
  widenedSubjects: string[];
  /** Every change of decision in words, narrowing ones too, where the analyser knows them (policies). */
  changes?: string[];
}

export interface EditOutcome {
  status: EditStatus;
  /** The stored version, for applied and saved_not_running. */
  version?: DocumentVersion;
  /** Why, as the one Diagnostic (docs/documents.md, "Codes"): a validator's problems with their places, or one reason. */
  reasons: Diagnostic[];
  impact: EditImpact;
  /** Set on a refusal because the store was busy (its lock held past the wait): nothing stored, try again after this many seconds. */
  retryAfterSeconds?: number;
}

/** Checks and assesses one kind of document. */
export interface DocumentValidator {
  /**
   * Problems that keep the text from loading, each with its code and place; empty when it loads. A promise
   * lets a big text be read off the caller's event loop (the API's compile thread).
   */
  validate(id: string, text: string): Diagnostic[] | Promise<Diagnostic[]>;
  /** What the new text widens compared with the running one (a promise, as for validate). */
  impact(id: string, runningText: string | undefined, newText: string): EditImpact | Promise<EditImpact>;
}

export const NO_IMPACT: EditImpact = Object.freeze({ widensSecurity: false, widenedSubjects: [] }) as EditImpact;

/**
 * One reason as a Diagnostic: the seam's own refusals and notes have no place in the text.
 *
 * @example
 * problem('EDIT_CONFLICT', 'a.json changed since version 3: ...') // { code: 'EDIT_CONFLICT', severity: 'error', message: '...' }
 */
export function problem(code: Code, message: string, severity: Diagnostic['severity'] = 'error'): Diagnostic {
  return { code, severity, message };
}
