// Your signing keys: the credentials that sign your approvals and denials (docs/approver-keys.md), and
// "Add a passkey", which has the browser make one on this device's authenticator and enrolls it.
import { useState } from 'react';
import { ApiRefusal } from '../../../components/api-refusal.tsx';
import { useEnrollPasskey } from '../api/enroll-passkey.ts';
import { CredentialsTable, nameOf } from './credentials-table.tsx';

export function SigningKeysSection({ me, onSaid }: { me: string | null; onSaid: (text: string) => void }) {
  const [label, setLabel] = useState('');
  const enroll = useEnrollPasskey((credential) => {
    onSaid(`The ${nameOf(credential)} was added: the console asks it to sign your decisions.`);
    setLabel('');
  });
  return (
    <section className="stack" aria-labelledby="signing-keys-heading">
      <h2 id="signing-keys-heading">Your signing keys</h2>
      <p>
        Every approval or denial you make is signed. With a passkey enrolled, the console asks it to sign each one; without one, Tollgate
        signs with the custodial key it holds for you.
      </p>
      {me === null ? (
        <p className="muted">Your signing keys are shown once the server says who you are.</p>
      ) : (
        <CredentialsTable member={me} caption="Your signing keys, custodial first" onSaid={onSaid} />
      )}
      <form
        className="members-form stack"
        aria-labelledby="add-passkey-heading"
        onSubmit={(event) => {
          event.preventDefault();
          if (!enroll.isPending) enroll.mutate(label);
        }}
      >
        <h3 id="add-passkey-heading">Add a passkey</h3>
        <div className="members-form-row">
          <label className="field">
            <span>Passkey label (optional)</span>
            <input value={label} onChange={(event) => setLabel(event.target.value)} maxLength={100} autoComplete="off" />
          </label>
        </div>
        <div className="actions">
          <button type="submit" className="button button-primary" aria-disabled={enroll.isPending}>
            {enroll.isPending ? 'Adding a passkey…' : 'Add a passkey'}
          </button>
        </div>
        <ApiRefusal error={enroll.error} />
      </form>
    </section>
  );
}
