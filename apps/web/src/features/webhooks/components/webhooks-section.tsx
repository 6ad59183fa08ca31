// The Webhooks section of the Members & keys page (owners and admins; docs/console.md, "Webhooks"): the
// subscriptions with Deliveries, Rotate secret and Remove on each, the form that adds one, and the deliveries
// of the one selected. A secret just made or rotated is held in this component's state alone until its panel
// is closed.
import { useState } from 'react';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { MaybeRelativeTime } from '../../../components/relative-time.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useWebhooks } from '../api/get-webhooks.ts';
import { useRemoveWebhook } from '../api/remove-webhook.ts';
import { useRotateWebhookSecret } from '../api/rotate-webhook-secret.ts';
import type { Webhook } from '../api/types.ts';
import { filterWords, type RevealedSecret } from '../webhook-forms.ts';
import { DeliveriesTable } from './deliveries-table.tsx';
import { NewWebhookForm } from './new-webhook-form.tsx';
import { WebhookSecretPanel } from './webhook-secret-panel.tsx';

export function WebhooksSection({ onSaid }: { onSaid: (text: string) => void }) {
  const webhooks = useWebhooks();
  const [revealed, setRevealed] = useState<RevealedSecret | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const shown = webhooks.data?.find((webhook) => webhook.id === selected) ?? null;
  return (
    <section className="stack" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p>Signed posts to your URLs when a call is held for approval and when it is decided, expires or is claimed (docs/webhooks.md).</p>
      {revealed !== null && <WebhookSecretPanel revealed={revealed} onClose={() => setRevealed(null)} />}
      {webhooks.isPending && <Loading label="Loading the webhooks" />}
      {webhooks.isError && <ErrorNotice error={webhooks.error} />}
      {webhooks.isSuccess && webhooks.data.length === 0 && <Empty>No webhook subscriptions.</Empty>}
      {webhooks.isSuccess && webhooks.data.length > 0 && (
        <ScrollPane as="div" label="Webhooks, scrolls sideways" className="decisions-table-wrap">
          <table className="decisions-table webhooks-table">
            <caption>Webhook subscriptions, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Format</th>
                <th scope="col">Filters</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.data.map((webhook) => (
                <WebhookRow
                  key={webhook.id}
                  webhook={webhook}
                  selected={webhook.id === selected}
                  onSelect={() => setSelected(webhook.id === selected ? null : webhook.id)}
                  onSaid={onSaid}
                  onSecret={setRevealed}
                />
              ))}
            </tbody>
          </table>
        </ScrollPane>
      )}
      {shown !== null && <DeliveriesTable webhook={shown} onSaid={onSaid} />}
      <NewWebhookForm onSaid={onSaid} onSecret={setRevealed} />
    </section>
  );
}

interface WebhookRowProps {
  webhook: Webhook;
  selected: boolean;
  onSelect: () => void;
  onSaid: (text: string) => void;
  onSecret: (revealed: RevealedSecret) => void;
}

function WebhookRow({ webhook, selected, onSelect, onSaid, onSecret }: WebhookRowProps) {
  const rotate = useRotateWebhookSecret((revealed) => {
    onSaid(`${webhook.url} has a new signing secret: copy it now.`);
    onSecret(revealed);
  });
  const remove = useRemoveWebhook((removed) => onSaid(`${removed.url} is no longer subscribed.`));
  return (
    <tr className={selected ? 'webhook-row-selected' : undefined}>
      <th scope="row">
        <code>{webhook.url}</code>
      </th>
      <td>{webhook.events.join(', ')}</td>
      <td>
        {webhook.format === 'slack' ? 'Slack' : 'Standard'}
        {webhook.include_arguments && <>, with arguments</>}
      </td>
      <td>{filterWords(webhook.filters)}</td>
      <td>
        <MaybeRelativeTime at={webhook.created_at} /> by {webhook.created_by}
      </td>
      <td>
        <div className="key-actions">
          <button type="button" className="button" aria-pressed={selected} onClick={onSelect}>
            Deliveries
          </button>
          <ConfirmButton
            label="Rotate secret"
            question={`Give ${webhook.url} a new signing secret? Deliveries from then on are signed with it.`}
            confirmLabel="Rotate the secret"
            pending={rotate.isPending}
            error={rotate.error}
            onConfirm={() => rotate.mutate(webhook.id)}
          />
          <ConfirmButton
            label="Remove"
            question={`Remove the subscription of ${webhook.url}? Its deliveries not yet made are given up.`}
            confirmLabel="Remove the subscription"
            pending={remove.isPending}
            error={remove.error}
            onConfirm={() => remove.mutate(webhook.id)}
            danger
          />
        </div>
      </td>
    </tr>
  );
}
