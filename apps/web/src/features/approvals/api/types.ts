// The approval request the API answers (GET /v1/approvals).
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired';

export interface Approval {
  id: string;
  call_id: string;
  agent: string;
  tool: string;
  /** Null unless arguments_shown (and null once forgotten after the retention period). */
  arguments: unknown;
  /** Whether this member may see the arguments: an eligible approver of the request, an owner or an admin. */
  arguments_shown: boolean;
  amount: string | null;
  currency: string | null;
  policy_document: string;
  policy_sequence: number;
  rule: string | null;
  description: string | null;
  approvers: string[];
  status: ApprovalStatus;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
  signature: string | null;
  signed_content: string | null;
  claimed_at: string | null;
  created_at: string;
}

/** Who is looking: the app passes the signed-in member down (features do not import each other). */
export interface Viewer {
  id: string | null;
  role: string | null;
}
