// DELETE /v1/webhooks/{id}: removes a subscription; its deliveries not yet made are given up.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { Webhook } from './types.ts';

export async function removeWebhook(id: string): Promise<Webhook> {
  return bodyOf(await api.DELETE('/webhooks/{id}', { params: { path: { id } } }));
}

export function useRemoveWebhook(onRemoved: (webhook: Webhook) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: removeWebhook,
    onSuccess: async (webhook) => {
      onRemoved(webhook);
      await client.invalidateQueries({ queryKey: queryKeys.webhooks.all });
    },
  });
}
