// What four eyes check before a stored version runs (docs/security.md, "Four eyes"): a version that widens what
// runs is made to run by another member than its author, and only an owner changes review_widening_edits itself,
// whether by an edit or by running a stored settings version. Every way a version is made to run calls these:
// activate and revert (routes/documents.ts), a rule set's active version (rulesets/ruleset-patch.ts).
import { documentKindOf } from '@tollgate/engine';
import type { Author, StoredDocument } from '@tollgate/store';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { storeError } from '../routes/route-kit.ts';
import type { MemberRow } from '../state/members/model.ts';
import { reviewSettingOf, SETTINGS_ID, wideningEditsReviewed } from './setting.ts';

type Actor = Pick<MemberRow, 'id' | 'name' | 'role'>;

/**
 * Whether a member wrote a version: its author is a member's edit (a person's, a developer's or their model key's)
 * labelled with the member's name, which is unique among members. A model's edit is its member's: four eyes are two
 * people, and a model is not a second one.
 */
export function authoredBy(author: Author, member: Pick<MemberRow, 'name'>): boolean {
  return (author.kind === 'person' || author.kind === 'developer' || author.kind === 'model') && author.label === member.name;
}

/**
 * Refuses `candidate` run by its own author while four eyes hold and it widens what runs now (403
 * SELF_REVIEW_FORBIDDEN, with the widened subjects). The impact is the edit seam's analyser's, against the version
 * running at this moment, so a version that widened nothing when saved but would now is caught too.
 */
export async function assertNotSelfReview(ctx: AppContext, candidate: StoredDocument, member: Actor): Promise<void> {
  if (!authoredBy(candidate.author, member)) return;
  if (!(await wideningEditsReviewed(ctx.store).catch(storeError))) return;
  const running = await ctx.store.get(candidate.id).catch(storeError);
  if (running?.sequence === candidate.sequence) return;
  const impact = await ctx.seam.assess(candidate.id, running?.text, candidate.text);
  if (!impact.widensSecurity) return;
  throw new ApiError(
    'SELF_REVIEW_FORBIDDEN',
    `${candidate.id} version ${candidate.sequence} widens what runs and ${member.name} wrote it: under four eyes (review_widening_edits) another owner or admin activates it`,
    { author: candidate.author.label, widened_subjects: [...impact.widenedSubjects] },
  );
}

/**
 * Only an owner turns four eyes on or off (403 OWNER_REQUIRED): a settings text whose review_widening_edits differs
 * from the running one's (false with none running), edited or made to run by another role, is refused. A text that
 * does not read is left to its validator.
 */
export async function assertOwnerChangesReview(ctx: AppContext, id: string, text: string, member: Actor): Promise<void> {
  if (documentKindOf(id) !== 'settings' || member.role === 'owner') return;
  const next = reviewSettingOf(text);
  if (next === undefined) return;
  const running = await ctx.store.get(SETTINGS_ID).catch(storeError);
  const now = running === undefined ? false : reviewSettingOf(running.text) === true;
  if (next === now) return;
  throw new ApiError(
    'OWNER_REQUIRED',
    `only an owner changes review_widening_edits (four eyes on widening edits); you are ${member.role}`,
    {
      roles: ['owner'],
    },
  );
}

/** Records who made a version run, beside the store's author of it (state/activations/model.ts). */
export async function recordActivation(ctx: AppContext, id: string, sequence: number, member: Actor): Promise<void> {
  await ctx.state.recordActivation({
    document: id,
    sequence,
    member_id: member.id,
    member_name: member.name,
    activated_at: ctx.now().toISOString(),
  });
}
