// An edit writer for the edit seam: a policy edit of language revision 2 or 3 that would run while a live
// node decides a lower revision is stored as a version that does not run, with GATEWAYS_NOT_UPGRADED as
// its reason (docs/deploy.md, "the language gate"). The author's work is kept; activating it later is
// checked again, so it runs only once every live node decides it.
import { documentKindOf } from '@tollgate/engine';
import { type DocumentStore, type EditImpact, type EditOutcome, type EditWriter, type ProposedEdit, saveEdit } from '@tollgate/store';
import { laggingNodesOf, type StateStore } from '../state/state-store.ts';
import { laggingSentence, textRevision } from './lagging.ts';

export class HoldLanguageEdits implements EditWriter {
  constructor(
    private readonly inner: EditWriter,
    private readonly store: DocumentStore,
    private readonly state: StateStore,
  ) {}

  async submit(edit: ProposedEdit, impact: EditImpact): Promise<EditOutcome> {
    if (documentKindOf(edit.document) !== 'policy') return this.inner.submit(edit, impact);
    const revision = textRevision(edit.content);
    const lagging = await laggingNodesOf(this.state, revision);
    if (lagging.length === 0) return this.inner.submit(edit, impact);
    const outcome = await saveEdit(this.store, edit, impact, false);
    if (outcome.status !== 'saved_not_running' || !outcome.version) return outcome;
    return {
      ...outcome,
      reasons: [
        {
          code: 'GATEWAYS_NOT_UPGRADED',
          severity: 'info',
          message: `Version ${outcome.version.sequence} is stored and does not run: it is policy language revision ${revision} and ${laggingSentence(lagging, revision)}. Activate it once they are upgraded.`,
        },
      ],
    };
  }
}
