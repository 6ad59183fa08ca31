// An edit through the document route: a developer's catalogue edit that changes a binding is refused, the
// text is checked against the store (a rule set's pins, the settings' approved versions), and the edit goes
// through the edit seam with its precondition; the answer is the outcome as the route sends it.
import { documentKindOf } from '@tollgate/engine';
import type { Diagnostic } from '@tollgate/engine/source';
import type { EditOutcome } from '@tollgate/store';
import type { AppContext } from '../../context.ts';
import { diagnosticsJson } from '../../diagnostic-schema.ts';
import { ApiError } from '../../errors.ts';
import { assertOwnerChangesReview } from '../../four-eyes/activation.ts';
import { previewAgainst } from '../../review/preview.ts';
import { checkAgainstStore } from '../../rulesets/store-checks.ts';
import type { MemberRow } from '../../state/members/model.ts';
import { storeError } from '../route-kit.ts';
import { refuseBindingChange } from './checks.ts';
import { impactJson, versionJson } from './wire.ts';

export interface EditRequest {
  content: string;
  reason: string;
  based_on?: number | null;
}

/** The outcome of an edit on the wire, with the edit seam's outcome it came from (none when refused before it). */
export async function submitEdit(
  ctx: AppContext,
  id: string,
  body: EditRequest,
  editor: { member: MemberRow; model: boolean },
  ifMatch: number | undefined,
) {
  const { member } = editor;
  const kind = documentKindOf(id);
  if (kind === 'catalogue' && member.role === 'developer') await refuseBindingChange(ctx, id, body.content);
  // The upstreams document says which programs the gateway starts and where it sends calls: owners and admins only.
  if (kind === 'upstreams' && member.role !== 'owner' && member.role !== 'admin') {
    throw new ApiError('ROLE_REQUIRED', `${id} is edited by an owner or admin only`, { roles: ['owner', 'admin'] });
  }
  // Four eyes are turned on or off by an owner alone (docs/security.md, "Four eyes").
  await assertOwnerChangesReview(ctx, id, body.content, member);
  // A rule set's pins and the settings' approved versions are checked against the store here (the seam's
  // validators read the text alone); a set's pins without a version are pinned as the version is made.
  const checked = await checkAgainstStore(ctx, id, body.content);
  if (!checked.ok) {
    const refused: EditOutcome = { status: 'refused', reasons: checked.problems, impact: { widensSecurity: false, widenedSubjects: [] } };
    return {
      outcome: refused,
      result: { status: refused.status, reasons: diagnosticsJson(checked.problems), impact: impactJson(refused.impact) },
    };
  }
  // The seam's validators read the members as last read (state-store.ts, judgedMembersSeen): read them now, so a
  // member added on another node counts as an approver in this edit.
  await ctx.state.judgedMembers();
  const outcome = await ctx.seam
    .submit({
      kind: 'document',
      document: id,
      content: checked.content,
      author: { kind: editor.model ? 'model' : member.role === 'developer' ? 'developer' : 'person', label: member.name },
      reason: body.reason,
      ...(body.based_on !== undefined ? { basedOn: body.based_on } : {}),
      ...(ifMatch !== undefined ? { ifMatch } : {}),
    })
    .catch(storeError);
  const result = {
    status: outcome.status,
    ...(outcome.version ? { version: versionJson(outcome.version) } : {}),
    ...(heldForReview(outcome) ? { held_for_review: true as const } : {}),
    reasons: diagnosticsJson(outcome.version ? [...outcome.reasons, ...checked.notes.map(pinNote)] : outcome.reasons),
    impact: impactJson(outcome.impact),
  };
  if (outcome.version) ctx.events.publish({ type: 'document', id, sequence: outcome.version.sequence });
  const preview = outcome.status === 'conflict' ? await conflictPreview(ctx, id, checked.content) : undefined;
  return { outcome, result: preview ? { ...result, preview } : result };
}

/** A stored version held for a person to review and activate: the reason HELD_FOR_REVIEW says so. */
function heldForReview(outcome: EditOutcome): boolean {
  return outcome.status === 'saved_not_running' && outcome.reasons.some((r) => r.code === 'HELD_FOR_REVIEW');
}

/** A note of the store checks on a stored edit (pins taken at their running versions), as a Diagnostic. */
function pinNote(message: string): Diagnostic {
  return { code: 'PINNED_AT_RUNNING', severity: 'info', message };
}

/**
 * A conflicting policy edit's impact preview against the version that runs now (docs/documents.md,
 * "Conflicts"): which tools the edit's text would change, from what to what. None when nothing runs or the
 * running version does not load: the conflict stands on its own.
 */
async function conflictPreview(ctx: AppContext, id: string, content: string) {
  if (documentKindOf(id) !== 'policy') return undefined;
  const running = await ctx.store.get(id).catch(() => undefined);
  if (!running) return undefined;
  return previewAgainst(
    ctx,
    id,
    { sequence: running.sequence, text: running.text },
    content,
    `${id}: the edit against version ${running.sequence}`,
  ).catch(() => undefined);
}
