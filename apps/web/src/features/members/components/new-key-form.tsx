// New key (owners and admins): a name, the holder (a member from the list, or an agent by name), grants and an
// optional expiry. The key comes back once, to the page's panel.
import { useId, useState } from 'react';
import { ApiRefusal } from '../../../components/api-refusal.tsx';
import { useCreateKey } from '../api/create-key.ts';
import { useMembers } from '../api/get-members.ts';
import { GRANTS, type Grant } from '../api/types.ts';
import { type NewKeyForm as Form, holderOf, newKeyBody, type RevealedKey } from '../key-forms.ts';

const EMPTY: Form = { name: '', holder: 'member', member: '', agent: '', grants: [], expires: '' };

export function NewKeyForm({ onSaid, onSecret }: { onSaid: (text: string) => void; onSecret: (revealed: RevealedKey) => void }) {
  const id = useId();
  const members = useMembers();
  const [form, setForm] = useState<Form>(EMPTY);
  const [problem, setProblem] = useState<Error | null>(null);
  const create = useCreateKey((revealed) => {
    onSaid(`A key for ${holderOf(revealed.info)} was made: copy it now.`);
    onSecret(revealed);
    setForm(EMPTY);
  });
  const set = (patch: Partial<Form>) => setForm((current) => ({ ...current, ...patch }));
  const toggle = (grant: Grant, on: boolean) =>
    set({ grants: on ? GRANTS.filter((g) => g === grant || form.grants.includes(g)) : form.grants.filter((g) => g !== grant) });
  return (
    <form
      className="members-form stack"
      aria-labelledby="new-key-heading"
      onSubmit={(event) => {
        event.preventDefault();
        if (create.isPending) return;
        const made = newKeyBody(form);
        if ('problem' in made) {
          setProblem(new Error(made.problem));
          return;
        }
        setProblem(null);
        create.mutate(made.body);
      }}
    >
      <h3 id="new-key-heading">New key</h3>
      <div className="members-form-row">
        <label className="field">
          <span>Key name (optional)</span>
          <input value={form.name} onChange={(event) => set({ name: event.target.value })} maxLength={128} autoComplete="off" />
        </label>
        <fieldset className="members-choice">
          <legend>Holder</legend>
          <label className="check">
            <input type="radio" name="new-key-holder" checked={form.holder === 'member'} onChange={() => set({ holder: 'member' })} />A
            member
          </label>
          <label className="check">
            <input type="radio" name="new-key-holder" checked={form.holder === 'agent'} onChange={() => set({ holder: 'agent' })} />
            An agent
          </label>
        </fieldset>
        {form.holder === 'member' ? (
          // The label names the select alone (a label around a select would read its chosen option too).
          <div className="field">
            <label htmlFor={`${id}-member`}>Member</label>
            <select id={`${id}-member`} className="select" value={form.member} onChange={(event) => set({ member: event.target.value })}>
              <option value="">Choose a member</option>
              {(members.data ?? []).map((member) => (
                <option key={member.id} value={member.name}>
                  {member.name} ({member.role})
                </option>
              ))}
            </select>
          </div>
        ) : (
          <label className="field">
            <span>Agent name</span>
            <input value={form.agent} onChange={(event) => set({ agent: event.target.value })} maxLength={64} autoComplete="off" />
          </label>
        )}
      </div>
      <div className="members-form-row">
        <fieldset className="members-choice">
          <legend>Grants (none ticked: a member's key gets its role's, an agent's none)</legend>
          {GRANTS.map((grant) => (
            <label key={grant} className="check">
              <input type="checkbox" checked={form.grants.includes(grant)} onChange={(event) => toggle(grant, event.target.checked)} />
              {grant}
            </label>
          ))}
        </fieldset>
        <label className="field">
          <span>Expires (optional)</span>
          <input type="datetime-local" value={form.expires} onChange={(event) => set({ expires: event.target.value })} />
        </label>
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" aria-disabled={create.isPending}>
          Make the key
        </button>
      </div>
      <ApiRefusal error={problem ?? create.error} />
    </form>
  );
}
