// An edit writer for the edit seam: a rule set's new text (new pins) is stored as a draft version that does
// not run until an owner or admin activates it, whichever way it arrives (the console's editor, the API,
// a model). Its first version is stored as usual: the set itself starts as a draft, so nothing runs it.
import { documentKindOf } from '@tollgate/engine';
import { type DocumentStore, type EditImpact, type EditOutcome, type EditWriter, type ProposedEdit, saveEdit } from '@tollgate/store';

export class HoldRulesetEdits implements EditWriter {
  constructor(
    private readonly inner: EditWriter,
    private readonly store: DocumentStore,
  ) {}

  async submit(edit: ProposedEdit, impact: EditImpact): Promise<EditOutcome> {
    if (documentKindOf(edit.document) !== 'ruleset' || edit.basedOn === null || edit.basedOn === undefined) {
      return this.inner.submit(edit, impact);
    }
    const outcome = await saveEdit(this.store, edit, impact, false);
    if (outcome.status !== 'saved_not_running' || !outcome.version) return outcome;
    return {
      ...outcome,
      reasons: [
        {
          code: 'HELD_FOR_REVIEW',
          severity: 'info',
          message: `Version ${outcome.version.sequence} of the rule set is a draft: it runs once an owner or admin activates it.`,
        },
      ],
    };
  }
}
