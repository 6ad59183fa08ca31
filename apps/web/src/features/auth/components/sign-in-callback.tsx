// The page the identity provider sends the browser back to (CALLBACK_PATH): finishes the sign-in once, then
// leaves the callback address so a reload or the back button never replays the code.
import { useEffect, useState } from 'react';
import type { TokenSession } from '../../../lib/token-session.ts';
import { completeSignIn, SignInError } from '../api/oidc-sign-in.ts';

// One completion per page load: StrictMode runs effects twice, and the pending values are read only once.
let completion: Promise<TokenSession> | null = null;

export function SignInCallback({ onDone }: { onDone: (outcome: { session: TokenSession } | { error: string }) => void }) {
  const [done] = useState(() => onDone);
  useEffect(() => {
    completion ??= completeSignIn(new URL(window.location.href));
    let live = true;
    completion.then(
      (session) => live && done({ session }),
      (error: unknown) =>
        live &&
        done({
          error: error instanceof SignInError ? error.message : 'The sign-in could not be completed. Nothing was kept; sign in again.',
        }),
    );
    return () => {
      live = false;
    };
  }, [done]);
  return (
    <section className="panel sign-in" aria-labelledby="sign-in-heading" aria-busy="true">
      <h1 id="sign-in-heading" tabIndex={-1}>
        Signing in…
      </h1>
      <p className="muted">Finishing the sign-in with your identity provider.</p>
    </section>
  );
}
