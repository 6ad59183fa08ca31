// Whether the viewer is offered Approve and Deny: an approving role and listed as eligible.
import type { Approval, Viewer } from './types.ts';

const APPROVER_ROLES = ['owner', 'admin', 'approver'];

/** True when `viewer` may decide `approval`. A viewer the API could not identify is offered the buttons and the server decides. */
export function canDecide(viewer: Viewer, approval: Approval): boolean {
  if (approval.status !== 'pending') return false;
  if (viewer.id === null) return true;
  return viewer.role !== null && APPROVER_ROLES.includes(viewer.role) && approval.approvers.includes(viewer.id);
}
