// GET /v1/approvals?status=&limit=: approval requests, newest first, at most limit of them.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import type { Approval, ApprovalStatus } from './types.ts';

/** Which requests a list asks for: one status, or every decided one (approved, denied, expired). */
export type ApprovalFilter = ApprovalStatus | 'decided';

export interface ApprovalPage {
  approvals: Approval[];
  /** Whether older requests match too. */
  hasMore: boolean;
}

export async function getApprovals(filter: ApprovalFilter, limit: number, signal?: AbortSignal): Promise<ApprovalPage> {
  const body = await apiFetch<{ approvals: Approval[]; has_more: boolean }>(`/v1/approvals?status=${filter}&limit=${limit}`, { signal });
  return { approvals: body.approvals, hasMore: body.has_more };
}

export const approvalsQueryOptions = (filter: ApprovalFilter, limit: number) =>
  queryOptions({ queryKey: ['approvals', 'list', filter, limit], queryFn: ({ signal }) => getApprovals(filter, limit, signal) });

export function useApprovals(filter: ApprovalFilter, limit: number) {
  return useQuery(approvalsQueryOptions(filter, limit));
}
