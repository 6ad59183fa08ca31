// The sign-in page: a member key, checked against the API, kept for the session when accepted; beside it the
// identity providers the server lists (issuer-sign-in.tsx), and a note when a session ended or a sign-in failed.
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { refusalOf, useCheckKey } from '../api/check-key.ts';
import { IssuerSignIn } from './issuer-sign-in.tsx';

/** What the page says above the form: a session that ended by itself, or a sign-in that failed. */
export type SignInNotice = { kind: 'ended' | 'failed'; text: string };

export function SignInForm({ onSignedIn, notice = null }: { onSignedIn: (key: string) => void; notice?: SignInNotice | null }) {
  const [key, setKey] = useState('');
  const check = useCheckKey(onSignedIn);
  const field = useRef<HTMLInputElement>(null);
  // The key is the only thing this page asks for, so typing can start at once.
  useEffect(() => field.current?.focus(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() !== '') check.mutate(key.trim());
  };
  return (
    <section className="panel sign-in" aria-labelledby="sign-in-heading">
      <h1 id="sign-in-heading" tabIndex={-1}>
        Sign in
      </h1>
      {notice !== null && (
        <p className={notice.kind === 'failed' ? 'state state-error' : 'state'} role={notice.kind === 'failed' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
      <p className="muted">Paste the key you were given (tollgate keys create, or the demo keys printed by npm start).</p>
      <form onSubmit={submit} className="stack">
        <label className="field">
          <span>Member key</span>
          <input ref={field} type="password" autoComplete="off" value={key} onChange={(event) => setKey(event.target.value)} required />
        </label>
        {check.isError && (
          <p className="state state-error" role="alert">
            {refusalOf(check.error)}
          </p>
        )}
        <button type="submit" className="button button-primary" disabled={check.isPending}>
          {check.isPending ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <IssuerSignIn />
    </section>
  );
}
