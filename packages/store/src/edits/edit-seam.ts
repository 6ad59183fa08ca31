// The edit seam: one way in for a person's, your code's and a model's edits. An edit is refused unread
// over the size limit, checked by the validator of its document's kind, checked against the running
// version, assessed for what it widens, and handed to the edit writer, which decides whether it runs.

import { byteLength } from '../digest.ts';
import { idProblem } from '../document-id.ts';
import type { Author, DocumentStore, DocumentVersion } from '../types.ts';
import { ApplyingEditWriter, type EditWriter } from './writers.ts';

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
}

export interface EditOutcome {
  status: EditStatus;
  /** The stored version, for applied and saved_not_running. */
  version?: DocumentVersion;
  reasons: string[];
  impact: EditImpact;
  /** Set on a refusal because the store was busy (its lock held past the wait): nothing stored, try again after this many seconds. */
  retryAfterSeconds?: number;
}

/** Checks and assesses one kind of document. */
export interface DocumentValidator {
  /**
   * Problems that keep the text from loading, each a line for people (`id:LINE: message`); empty when it
   * loads. A promise lets a big text be read off the caller's event loop (the API's compile thread).
   */
  validate(id: string, text: string): string[] | Promise<string[]>;
  /** What the new text widens compared with the running one (a promise, as for validate). */
  impact(id: string, runningText: string | undefined, newText: string): EditImpact | Promise<EditImpact>;
}

export interface EditSeamOptions {
  store: DocumentStore;
  /** The kind of a document from its id, or undefined when no kind fits. */
  kindOf: (id: string) => string | undefined;
  validators: Readonly<Record<string, DocumentValidator>>;
  /** A larger edit is refused before any validator reads it; follows the store's document limit when left out. */
  maxEditBytes?: number;
  /** Wraps the default writer, e.g. `(inner) => new HoldModelEdits(inner, store)`. */
  wrapWriter?: (inner: EditWriter) => EditWriter;
}

export const NO_IMPACT: EditImpact = Object.freeze({ widensSecurity: false, widenedSubjects: [] }) as EditImpact;

/**
 * The seam itself.
 *
 * @example
 * const seam = new EditSeam({ store, kindOf: documentKindOf, validators: engineValidators() });
 * const outcome = await seam.submit({ kind: 'document', document: 'policies/refunds.policy.json', content, author, reason });
 */
export class EditSeam {
  readonly maxEditBytes: number;
  private readonly options: EditSeamOptions;
  private readonly writer: EditWriter;

  constructor(options: EditSeamOptions) {
    this.options = options;
    this.maxEditBytes = Math.min(options.maxEditBytes ?? options.store.maxDocumentBytes, options.store.maxDocumentBytes);
    const inner = new ApplyingEditWriter(options.store);
    this.writer = options.wrapWriter ? options.wrapWriter(inner) : inner;
  }

  async submit(edit: ProposedEdit): Promise<EditOutcome> {
    const id = edit.document;
    const bytes = byteLength(edit.content);
    if (bytes > this.maxEditBytes) {
      return refused(
        `${id}: The edit's content is ${bytes.toLocaleString('en-US')} bytes, more than the limit of ${this.maxEditBytes.toLocaleString('en-US')} bytes, so it is refused unread.`,
      );
    }
    const problem = idProblem(id);
    if (problem) return refused(`${JSON.stringify(id)}: ${problem}`);
    const kind = this.options.kindOf(id);
    const validator = kind === undefined ? undefined : this.options.validators[kind];
    if (!validator) return refused(`${id}: no validator handles this document, so the edit is refused`);
    const problems = await validator.validate(id, edit.content);
    if (problems.length > 0) return refused(...problems);
    // The running sequence comes from the history, so a damaged running version's file (whose text cannot
    // be read) is not taken for "nothing runs": an edit over it is how it is replaced (docs/store.md).
    const runningSequence = (await this.options.store.history(id)).find((v) => v.running)?.sequence ?? null;
    const running = runningSequence === null ? undefined : await this.options.store.getVersion(id, runningSequence);
    if (edit.basedOn !== undefined && edit.basedOn !== runningSequence) {
      return {
        status: 'conflict',
        reasons: [
          `${id} changed since version ${edit.basedOn ?? 'none'}: version ${runningSequence ?? 'none'} is running; read it, merge, and submit again`,
        ],
        impact: NO_IMPACT,
      };
    }
    const impact = await validator.impact(id, running?.text, edit.content);
    const outcome = await this.writer.submit({ ...edit, basedOn: runningSequence }, impact);
    // A writer cannot hide the assessment: every outcome carries it.
    return { ...outcome, impact };
  }
}

function refused(...reasons: string[]): EditOutcome {
  return { status: 'refused', reasons, impact: NO_IMPACT };
}
