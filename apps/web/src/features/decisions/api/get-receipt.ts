// GET /v1/decisions/{call_id}/receipt: a decision's receipt (docs/audit.md, "Receipts"), fetched when asked for and
// offered as a file for `tollgate audit verify-receipt`.
import { useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { components } from '../../../lib/api/schema';
import { queryKeys } from '../../../lib/query-keys.ts';

export type DecisionReceipt = components['schemas']['DecisionReceipt'];

export async function getReceipt(callId: string, signal?: AbortSignal): Promise<DecisionReceipt> {
  return bodyOf(await api.GET('/decisions/{call_id}/receipt', { params: { path: { call_id: callId } }, signal }));
}

/** The receipt of a call, once `enabled` (a receipt may sign a checkpoint, so it is asked for, not prefetched). */
export function useReceipt(callId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.decisions.receipt(callId),
    queryFn: ({ signal }) => getReceipt(callId, signal),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  });
}
