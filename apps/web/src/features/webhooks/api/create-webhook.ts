// POST /v1/webhooks: subscribes a URL. The answer carries the signing secret, shown once: it goes to `onSecret`
// and is taken out of what the mutation keeps, so no cache ever holds it (as a new key's, docs/console.md).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { type RevealedSecret, withoutWebhookSecret } from '../webhook-forms.ts';
import type { Webhook, WebhookBody } from './types.ts';

export async function createWebhook(body: WebhookBody, onSecret: (revealed: RevealedSecret) => void): Promise<Webhook> {
  const { secret, info } = withoutWebhookSecret(bodyOf(await api.POST('/webhooks', { body })));
  onSecret({ secret, info, why: 'new' });
  return info;
}

export function useCreateWebhook(onSecret: (revealed: RevealedSecret) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookBody) => createWebhook(body, onSecret),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.webhooks.all }),
  });
}
