// POST /v1/webhooks/{id}/rotate-secret: a new signing secret, shown once; deliveries from then on are signed
// with it. Like a new subscription's, the secret goes to `onSecret` only and never into the mutation's state.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { type RevealedSecret, withoutWebhookSecret } from '../webhook-forms.ts';
import type { Webhook } from './types.ts';

export async function rotateWebhookSecret(id: string, onSecret: (revealed: RevealedSecret) => void): Promise<Webhook> {
  const made = bodyOf(await api.POST('/webhooks/{id}/rotate-secret', { params: { path: { id } } }));
  const { secret, info } = withoutWebhookSecret(made);
  onSecret({ secret, info, why: 'rotated' });
  return info;
}

export function useRotateWebhookSecret(onSecret: (revealed: RevealedSecret) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => rotateWebhookSecret(id, onSecret),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhooks.all }),
  });
}
