// GET /v1/webhooks/{id}/deliveries: the subscription's last 100 attempts, newest first. Read again every few
// seconds while shown, as the delivery worker records attempts off the request path (docs/webhooks.md).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { WebhookAttempt } from './types.ts';

/** How often the shown deliveries are read again, in milliseconds. */
export const DELIVERIES_REFRESH_MS = 3_000;

export async function getDeliveries(id: string, signal?: AbortSignal): Promise<WebhookAttempt[]> {
  return bodyOf(await api.GET('/webhooks/{id}/deliveries', { params: { path: { id } }, signal })).deliveries;
}

export const deliveriesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: queryKeys.webhooks.deliveries(id),
    queryFn: ({ signal }) => getDeliveries(id, signal),
    refetchInterval: DELIVERIES_REFRESH_MS,
  });

export function useDeliveries(id: string) {
  return useQuery(deliveriesQueryOptions(id));
}
