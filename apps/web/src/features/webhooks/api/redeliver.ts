// POST /v1/webhooks/{id}/deliveries/{delivery}/redeliver: sends a delivery again now, with a fresh retry
// schedule (202); the subscription's deliveries are read again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export async function redeliver(webhook: string, delivery: string): Promise<{ id: string; status: 'pending' }> {
  return bodyOf(await api.POST('/webhooks/{id}/deliveries/{delivery}/redeliver', { params: { path: { id: webhook, delivery } } }));
}

export function useRedeliver(webhook: string, onQueued: (delivery: string) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (delivery: string) => redeliver(webhook, delivery),
    onSuccess: async (answer) => {
      onQueued(answer.id);
      await client.invalidateQueries({ queryKey: queryKeys.webhooks.deliveries(webhook) });
    },
  });
}
