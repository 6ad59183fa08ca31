// The selected subscription's recent deliveries (GET /v1/webhooks/{id}/deliveries): each attempt's event type,
// attempt number, outcome and the delivery's status now, HTTP status, latency, error and when (relative, the
// exact instant on hover), with Redeliver on each, which sends the delivery again now and reads the list again.

import { ApiRefusal } from '../../../components/api-refusal.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useDeliveries } from '../api/get-deliveries.ts';
import { useRedeliver } from '../api/redeliver.ts';
import type { Webhook, WebhookAttempt } from '../api/types.ts';

const OUTCOME_LABEL: Record<WebhookAttempt['outcome'], string> = { delivered: 'Delivered', failed: 'Failed' };
const STATUS_LABEL: Record<WebhookAttempt['status'], string> = { pending: 'retry due', delivered: 'delivered', failed: 'given up' };

export function DeliveriesTable({ webhook, onSaid }: { webhook: Webhook; onSaid: (text: string) => void }) {
  const deliveries = useDeliveries(webhook.id);
  const redeliver = useRedeliver(webhook.id, (delivery) => onSaid(`Delivery ${delivery} is sent again.`));
  return (
    <section className="stack" aria-labelledby="webhook-deliveries-heading">
      <h3 id="webhook-deliveries-heading">Deliveries to {webhook.url}</h3>
      {deliveries.isPending && <Loading label="Loading the deliveries" />}
      {deliveries.isError && <ErrorNotice error={deliveries.error} />}
      {deliveries.isSuccess && deliveries.data.length === 0 && <Empty>No delivery attempts yet.</Empty>}
      {deliveries.isSuccess && deliveries.data.length > 0 && (
        <ScrollPane as="div" label="Deliveries, scrolls sideways" className="decisions-table-wrap">
          <table className="decisions-table webhook-deliveries-table">
            <caption>Delivery attempts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Outcome</th>
                <th scope="col">HTTP status</th>
                <th scope="col">Latency</th>
                <th scope="col">Error</th>
                <th scope="col">When</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.data.map((attempt) => (
                <tr key={`${attempt.id}-${attempt.attempt}-${attempt.at}`}>
                  <th scope="row">{attempt.type}</th>
                  <td>{attempt.attempt}</td>
                  <td>
                    <span className={`badge badge-delivery-${attempt.outcome}`}>{OUTCOME_LABEL[attempt.outcome]}</span> (
                    {STATUS_LABEL[attempt.status]})
                  </td>
                  <td>{attempt.http_status ?? '—'}</td>
                  <td>{attempt.latency_ms} ms</td>
                  <td>{attempt.error ?? '—'}</td>
                  <td>
                    <RelativeTime at={attempt.at} />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button"
                      aria-disabled={redeliver.isPending}
                      onClick={() => {
                        if (!redeliver.isPending) redeliver.mutate(attempt.id);
                      }}
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollPane>
      )}
      <ApiRefusal error={redeliver.error} />
    </section>
  );
}
