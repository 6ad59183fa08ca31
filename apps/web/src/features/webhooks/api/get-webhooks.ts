// GET /v1/webhooks: the subscriptions, oldest first, never their secrets (owners and admins).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Webhook } from './types.ts';

export async function getWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
  return bodyOf(await api.GET('/webhooks', { signal })).webhooks;
}

export const webhooksQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.webhooks.list(), queryFn: ({ signal }) => getWebhooks(signal) });

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
