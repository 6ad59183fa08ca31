// Whether the viewer is offered Approve and Deny: an approving role and listed as eligible.
import { canApprove } from '../../../lib/capabilities.ts';
import type { Approval, Viewer } from './types.ts';

/** True when `viewer` may decide `approval`. A viewer the API could not identify is offered the buttons and the server decides. */
export function canDecide(viewer: Viewer, approval: Approval): boolean {
  if (approval.status !== 'pending') return false;
  if (viewer.id === null) return true;
  return canApprove(viewer.role) && approval.approvers.includes(viewer.id);
}
