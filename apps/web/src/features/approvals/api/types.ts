// The approval request the API answers, from the generated schema (GET /v1/approvals).
import type { components } from '../../../lib/api/schema';
import type { Role } from '../../../lib/capabilities.ts';

export type Approval = components['schemas']['Approval'];
export type ApprovalStatus = Approval['status'];

/** Who is looking: the app passes the signed-in member down (features do not import each other). */
export interface Viewer {
  id: string | null;
  role: Role | null;
}

/** What POST /v1/approvals/{id}/challenge answers: the content to sign and, with passkeys, WebAuthn request options. */
export type DecisionChallenge = components['schemas']['ApprovalChallenge'];
/** The proof a decision signed with a member-held key carries (docs/approver-keys.md). */
export type DecisionProof = components['schemas']['ApprovalProof'];
