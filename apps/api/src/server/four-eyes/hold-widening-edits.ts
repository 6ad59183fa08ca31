// An edit writer for the edit seam: under four eyes (review_widening_edits), an edit of any kind whose impact widens
// what runs is stored as a version that does not run, with HELD_FOR_REVIEW as its reason, for another member to
// activate (docs/security.md, "Four eyes"). Edits that widen nothing, and every edit with the setting off, go on.
import { type DocumentStore, type EditImpact, type EditOutcome, type EditWriter, holdEdit, type ProposedEdit } from '@tollgate/store';
import { wideningEditsReviewed } from './setting.ts';

export class HoldWideningEdits implements EditWriter {
  constructor(
    private readonly inner: EditWriter,
    private readonly store: DocumentStore,
  ) {}

  async submit(edit: ProposedEdit, impact: EditImpact): Promise<EditOutcome> {
    // The impact is the seam's, against the version that runs now: what this edit would widen if it ran.
    if (!impact.widensSecurity || !(await wideningEditsReviewed(this.store))) return this.inner.submit(edit, impact);
    return holdEdit(
      this.store,
      edit,
      impact,
      (sequence) =>
        `Version ${sequence} widens what runs, so under four eyes (review_widening_edits) it is stored and does not run: an owner or admin other than ${edit.author.label} activates it.`,
    );
  }
}
