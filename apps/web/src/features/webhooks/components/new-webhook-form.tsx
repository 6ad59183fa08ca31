// New subscription (owners and admins): the URL, the events it hears, the format (standard or Slack), whether
// the held call's arguments go in the payload, and the agents, tools and policy documents it is told of. The signing secret comes back once, to the section's panel; a URL
// the server refuses shows its code (WEBHOOK_URL_REFUSED).
import { useState } from 'react';
import { ApiRefusal } from '../../../components/api-refusal.tsx';
import { useCreateWebhook } from '../api/create-webhook.ts';
import { EVENTS, type WebhookEvent } from '../api/types.ts';
import { EMPTY_WEBHOOK_FORM, type NewWebhookForm as Form, newWebhookBody, type RevealedSecret } from '../webhook-forms.ts';

export function NewWebhookForm({ onSaid, onSecret }: { onSaid: (text: string) => void; onSecret: (revealed: RevealedSecret) => void }) {
  const [form, setForm] = useState<Form>(EMPTY_WEBHOOK_FORM);
  const [problem, setProblem] = useState<Error | null>(null);
  const create = useCreateWebhook((revealed) => {
    onSaid(`${revealed.info.url} is subscribed: copy its signing secret now.`);
    onSecret(revealed);
    setForm(EMPTY_WEBHOOK_FORM);
  });
  const set = (patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch }));
  const toggle = (event: WebhookEvent, on: boolean) =>
    set({ events: on ? EVENTS.filter((e) => e === event || form.events.includes(e)) : form.events.filter((e) => e !== event) });
  return (
    <form
      className="members-form stack"
      aria-labelledby="new-webhook-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (create.isPending) return;
        const made = newWebhookBody(form);
        if ('problem' in made) {
          setProblem(new Error(made.problem));
          return;
        }
        setProblem(null);
        create.mutate(made.body);
      }}
    >
      <h3 id="new-webhook-heading">New subscription</h3>
      <div className="members-form-row">
        <label className="field">
          <span>URL (https)</span>
          <input
            inputMode="url"
            value={form.url}
            onChange={(event) => set({ url: event.target.value })}
            placeholder="https://hooks.example.com/tollgate"
            autoComplete="off"
            spellCheck={false}
          />
        </label>
        <fieldset className="members-choice">
          <legend>Format</legend>
          <label className="check">
            <input
              type="radio"
              name="new-webhook-format"
              checked={form.format === 'standard'}
              onChange={() => set({ format: 'standard' })}
            />
            Standard
          </label>
          <label className="check">
            <input type="radio" name="new-webhook-format" checked={form.format === 'slack'} onChange={() => set({ format: 'slack' })} />
            Slack
          </label>
        </fieldset>
      </div>
      <div className="members-form-row">
        <fieldset className="members-choice">
          <legend>Events</legend>
          {EVENTS.map((event) => (
            <label key={event} className="check">
              <input type="checkbox" checked={form.events.includes(event)} onChange={(change) => toggle(event, change.target.checked)} />
              {event}
            </label>
          ))}
        </fieldset>
        <label className="check">
          <input type="checkbox" checked={form.includeArguments} onChange={(event) => set({ includeArguments: event.target.checked })} />
          Include the held call's arguments
        </label>
      </div>
      <fieldset className="members-choice">
        <legend>Only calls of (leave empty for any; names separated by commas)</legend>
        <div className="members-form-row">
          {(
            [
              ['agents', 'Agents', 'support-bot'],
              ['tools', 'Tools', 'issue_refund'],
              ['policies', 'Policy documents', 'policies/refunds.policy.json'],
            ] as const
          ).map(([name, label, example]) => (
            <label key={name} className="field">
              <span>{label}</span>
              <input
                value={form[name] ?? ''}
                onChange={(event) => set({ [name]: event.target.value })}
                placeholder={example}
                autoComplete="off"
                spellCheck={false}
              />
            </label>
          ))}
        </div>
      </fieldset>
      <div className="actions">
        <button type="submit" className="button button-primary" aria-disabled={create.isPending}>
          Subscribe
        </button>
      </div>
      <ApiRefusal error={problem ?? create.error} />
    </form>
  );
}
