// GET /v1/approvals?status=: approval requests, newest first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';
import type { Approval, ApprovalStatus } from './types.ts';

export async function getApprovals(status: ApprovalStatus | undefined, signal?: AbortSignal): Promise<Approval[]> {
  const query = status ? `?status=${status}` : '';
  const body = await apiFetch<{ approvals: Approval[] }>(`/v1/approvals${query}`, { signal });
  return body.approvals;
}

export const approvalsQueryOptions = (status?: ApprovalStatus) =>
  queryOptions({ queryKey: ['approvals', 'list', status ?? 'all'], queryFn: ({ signal }) => getApprovals(status, signal) });

export function useApprovals(status?: ApprovalStatus) {
  return useQuery(approvalsQueryOptions(status));
}
