// Edit writers decide whether a checked edit runs: the default applies it; HoldModelEdits keeps every
// model's edit as a candidate for a person to activate. Wrap writers to add your own policy.
import { type DocumentStore, StoreError, type StoreErrorCode } from '../types.ts';
import { type EditImpact, type EditOutcome, type ProposedEdit, problem } from './edit-types.ts';

export interface EditWriter {
  /** `edit.basedOn` is resolved (the running version's sequence, or null); the store refuses it if that changed meanwhile. */
  submit(edit: ProposedEdit, impact: EditImpact): Promise<EditOutcome>;
}

/** Stores the version and makes it the running one: edits apply by default, a model's included. */
export class ApplyingEditWriter implements EditWriter {
  private readonly store: DocumentStore;
  constructor(store: DocumentStore) {
    this.store = store;
  }

  submit(edit: ProposedEdit, impact: EditImpact): Promise<EditOutcome> {
    return saveEdit(this.store, edit, impact, true);
  }
}

/** Holds every edit a model proposes as a stored version that does not run; others go to the inner writer. */
export class HoldModelEdits implements EditWriter {
  private readonly inner: EditWriter;
  private readonly store: DocumentStore;
  constructor(inner: EditWriter, store: DocumentStore) {
    this.inner = inner;
    this.store = store;
  }

  submit(edit: ProposedEdit, impact: EditImpact): Promise<EditOutcome> {
    if (edit.author.kind !== 'model') return this.inner.submit(edit, impact);
    return saveEdit(this.store, edit, impact, false);
  }
}

/**
 * Saves an edit as a version that does not run, its HELD_FOR_REVIEW reason saying why in `why(sequence)`; a
 * refusal or conflict is answered as saveEdit answers it.
 */
export async function holdEdit(
  store: DocumentStore,
  edit: ProposedEdit,
  impact: EditImpact,
  why: (sequence: number) => string,
): Promise<EditOutcome> {
  const outcome = await saveEdit(store, edit, impact, false);
  if (outcome.status !== 'saved_not_running' || !outcome.version) return outcome;
  return { ...outcome, reasons: [problem('HELD_FOR_REVIEW', why(outcome.version.sequence), 'info')] };
}

/** Saves an edit, mapping a store refusal to an outcome: a changed running version is a Conflict. */
export async function saveEdit(store: DocumentStore, edit: ProposedEdit, impact: EditImpact, activate: boolean): Promise<EditOutcome> {
  try {
    const version = await store.save({
      id: edit.document,
      text: edit.content,
      author: edit.author,
      reason: edit.reason,
      basedOn: edit.basedOn ?? null,
      ...(edit.ifMatch !== undefined ? { ifMatch: edit.ifMatch } : {}),
      activate,
    });
    const reasons = activate
      ? []
      : [
          problem(
            'HELD_FOR_REVIEW',
            `Held for review: version ${version.sequence} is stored and the running version keeps running.`,
            'info',
          ),
        ];
    return { status: activate ? 'applied' : 'saved_not_running', version, reasons, impact };
  } catch (err) {
    // A failed precondition is the caller's to answer (412), not an outcome of the edit.
    if (err instanceof StoreError && err.code === 'precondition_failed') throw err;
    if (err instanceof StoreError && err.code === 'conflict')
      return { status: 'conflict', reasons: [problem('EDIT_CONFLICT', err.message)], impact };
    // Busy, not wrong: the caller is told to retry (the API answers 503 with Retry-After; docs/store.md, "The lock").
    if (err instanceof StoreError && err.code === 'locked')
      return { status: 'refused', reasons: [problem('LOCKED', err.message)], impact, retryAfterSeconds: 1 };
    // The store's code in upper case is the API's code for it (api-codes.ts); the cast lets the compiler hold each to the registry.
    if (err instanceof StoreError)
      return { status: 'refused', reasons: [problem(err.code.toUpperCase() as Uppercase<StoreErrorCode>, err.message)], impact };
    throw err;
  }
}
