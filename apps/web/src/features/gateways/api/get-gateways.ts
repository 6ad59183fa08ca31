// GET /v1/gateways: the gateway nodes deciding calls over the data folder, with the policy language revision
// each decides and whether it is live (docs/deploy.md, "The language gate").
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { components } from '../../../lib/api/schema';
import { queryKeys } from '../../../lib/query-keys.ts';

export type Gateway = components['schemas']['Gateway'];

export async function getGateways(signal?: AbortSignal): Promise<Gateway[]> {
  return bodyOf(await api.GET('/gateways', { signal })).gateways;
}

// Liveness moves with heartbeats (every 5 s), so the list is read again while it is shown.
export const gatewaysQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.gateways(), queryFn: ({ signal }) => getGateways(signal), refetchInterval: 5_000 });

export function useGateways() {
  return useQuery(gatewaysQueryOptions());
}
