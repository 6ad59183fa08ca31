// GET /v1/approvals/{id}: one request with why it was held (its explanation, docs/api.md), for the inbox's
// detail pane; under the approvals key, so the live events refresh it with the lists.
import { useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { components } from '../../../lib/api/schema';
import { queryKeys } from '../../../lib/query-keys.ts';

export type ApprovalRead = components['schemas']['ApprovalRead'];

export function useApproval(id: string) {
  return useQuery({
    queryKey: queryKeys.approvals.detail(id),
    queryFn: async ({ signal }) => bodyOf(await api.GET('/approvals/{id}', { params: { path: { id } }, signal })),
  });
}
