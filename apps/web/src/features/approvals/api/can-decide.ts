// Whether the viewer is offered Approve and Deny (an approving role, and one of the request's eligible
// approvers), and when not, why, in words that name who can (docs/console.md, "Approvals inbox").
import { canApprove } from '../../../lib/capabilities.ts';
import type { Approval, Viewer } from './types.ts';

const isListed = (viewer: Viewer, approval: Approval) => approval.eligible_approvers.some((m) => m.id === viewer.id);

/** True when `viewer` may decide `approval`. A viewer the API could not identify is offered the buttons and the server decides. */
export function canDecide(viewer: Viewer, approval: Approval): boolean {
  if (approval.status !== 'pending') return false;
  if (viewer.id === null) return true;
  return canApprove(viewer.role) && isListed(viewer, approval);
}

/** The eligible approvers' names as a sentence's list. Example: `namesOf(a)` is `'olivia, adam, and april'`. */
export function namesOf(approval: Approval): string {
  return new Intl.ListFormat('en', { type: 'conjunction' }).format(approval.eligible_approvers.map((m) => m.name));
}

/**
 * Why a pending request offers `viewer` no buttons, or null when it does (or is decided). Example: a viewer
 * reads "Only olivia, adam, and april can approve this call: your role is viewer."
 */
export function whyCannotDecide(viewer: Viewer, approval: Approval): string | null {
  if (approval.status !== 'pending' || canDecide(viewer, approval)) return null;
  if (approval.eligible_approvers.length === 0) {
    return 'No member can approve this call now: none of the approvers it was held for still approves with a signing identity.';
  }
  const only = `Only ${namesOf(approval)} can approve this call`;
  if (!canApprove(viewer.role)) return `${only}: your role is ${viewer.role ?? 'unknown'}.`;
  return `${only}: you are not one of the approvers it was held for.`;
}
