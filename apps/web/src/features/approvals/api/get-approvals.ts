// GET /v1/approvals?status=&limit=: approval requests, newest first, at most limit of them.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Approval, ApprovalStatus } from './types.ts';

/** Which requests a list asks for: one status, or every decided one (approved, denied, expired). */
export type ApprovalFilter = ApprovalStatus | 'decided';

export interface ApprovalPage {
  approvals: Approval[];
  /** Whether older requests match too. */
  hasMore: boolean;
}

export async function getApprovals(filter: ApprovalFilter, limit: number, signal?: AbortSignal): Promise<ApprovalPage> {
  const body = bodyOf(await api.GET('/approvals', { params: { query: { status: filter, limit } }, signal }));
  return { approvals: body.approvals, hasMore: body.has_more };
}

export const approvalsQueryOptions = (filter: ApprovalFilter, limit: number) =>
  queryOptions({ queryKey: queryKeys.approvals.list(filter, limit), queryFn: ({ signal }) => getApprovals(filter, limit, signal) });

export function useApprovals(filter: ApprovalFilter, limit: number) {
  return useQuery(approvalsQueryOptions(filter, limit));
}
