// The edit seam: one way in for a person's, your code's and a model's edits. An edit is refused unread
// over the size limit, checked by the validator of its document's kind, checked against the running
// version, assessed for what it widens, and handed to the edit writer, which decides whether it runs.

import type { Diagnostic } from '@tollgate/engine';
import { byteLength } from '../digest.ts';
import { idProblem } from '../document-id.ts';
import type { DocumentStore } from '../types.ts';
import { type DocumentValidator, type EditImpact, type EditOutcome, NO_IMPACT, type ProposedEdit, problem } from './edit-types.ts';
import { ApplyingEditWriter, type EditWriter } from './writers.ts';

export * from './edit-types.ts';

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

  /**
   * What `newText` widens over `runningText` by the analyser an edit of the document gets, so a check made later
   * (activating a stored version: docs/security.md, "Four eyes") judges as the edit was judged. None for an id no
   * validator handles.
   *
   * @example
   * await seam.assess('settings.yaml', running.text, version.text) // { widensSecurity: true, widenedSubjects: [...] }
   */
  async assess(id: string, runningText: string | undefined, newText: string): Promise<EditImpact> {
    const kind = this.options.kindOf(id);
    const validator = kind === undefined ? undefined : this.options.validators[kind];
    return validator ? await validator.impact(id, runningText, newText) : NO_IMPACT;
  }

  async submit(edit: ProposedEdit): Promise<EditOutcome> {
    const id = edit.document;
    const bytes = byteLength(edit.content);
    if (bytes > this.maxEditBytes) {
      return refused(
        problem(
          'TOO_LARGE',
          `${id}: The edit's content is ${bytes.toLocaleString('en-US')} bytes, more than the limit of ${this.maxEditBytes.toLocaleString('en-US')} bytes, so it is refused unread.`,
        ),
      );
    }
    const badId = idProblem(id);
    if (badId) return refused(problem('INVALID_ID', `${JSON.stringify(id)}: ${badId}`));
    const kind = this.options.kindOf(id);
    const validator = kind === undefined ? undefined : this.options.validators[kind];
    if (!validator) return refused(problem('DOCUMENT_KIND_UNKNOWN', `${id}: no validator handles this document, so the edit is refused`));
    const problems = await validator.validate(id, edit.content);
    if (problems.length > 0) return refused(...problems);
    // The running sequence comes from the history, so a damaged running version's file (whose text cannot
    // be read) is not taken for "nothing runs": an edit over it is how it is replaced (docs/store.md).
    const runningSequence = (await this.options.store.history(id)).find((v) => v.running)?.sequence ?? null;
    const running = runningSequence === null ? undefined : await this.options.store.getVersion(id, runningSequence);
    // Assessed against the version that runs now, a conflict included: its impact says what the edit would
    // change of what runs, so the author merges knowing it (docs/documents.md, "Conflicts").
    const impact = await validator.impact(id, running?.text, edit.content);
    if (edit.basedOn !== undefined && edit.basedOn !== runningSequence) {
      return {
        status: 'conflict',
        reasons: [
          problem(
            'EDIT_CONFLICT',
            `${id} changed since version ${edit.basedOn ?? 'none'}: version ${runningSequence ?? 'none'} is running; read it, merge, and submit again`,
          ),
        ],
        impact,
      };
    }
    const outcome = await this.writer.submit({ ...edit, basedOn: runningSequence }, impact);
    // A writer cannot hide the assessment: every outcome carries it.
    return { ...outcome, impact };
  }
}

function refused(...reasons: Diagnostic[]): EditOutcome {
  return { status: 'refused', reasons, impact: NO_IMPACT };
}
