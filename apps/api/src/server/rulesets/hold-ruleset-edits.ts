// An edit writer for the edit seam: a rule set's new text (new pins) is stored as a draft version that does
// not run until an owner or admin activates it, whichever way it arrives (the console's editor, the API,
// a model). Its first version is stored as usual: the set itself starts as a draft, so nothing runs it.
import { documentKindOf } from '@tollgate/engine';
import { type DocumentStore, type EditImpact, type EditOutcome, type EditWriter, holdEdit, type ProposedEdit } from '@tollgate/store';

export class HoldRulesetEdits implements EditWriter {
  constructor(
    private readonly inner: EditWriter,
    private readonly store: DocumentStore,
  ) {}

  async submit(edit: ProposedEdit, impact: EditImpact): Promise<EditOutcome> {
    if (documentKindOf(edit.document) !== 'ruleset' || edit.basedOn === null || edit.basedOn === undefined) {
      return this.inner.submit(edit, impact);
    }
    return holdEdit(
      this.store,
      edit,
      impact,
      (sequence) => `Version ${sequence} of the rule set is a draft: it runs once an owner or admin activates it.`,
    );
  }
}
