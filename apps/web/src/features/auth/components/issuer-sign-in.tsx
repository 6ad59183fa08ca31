// "Sign in with <issuer host>" buttons, one per issuer GET /v1/identity/issuers lists; none when it lists none.
import { useMutation } from '@tanstack/react-query';
import { useIssuers } from '../api/get-issuers.ts';
import { type ConsoleIssuer, issuerLabel, SignInError, startSignIn } from '../api/oidc-sign-in.ts';

export function IssuerSignIn() {
  const issuers = useIssuers();
  // Success leaves the page for the provider, so only a failure to get there is ever shown here.
  const start = useMutation({ mutationFn: (entry: ConsoleIssuer) => startSignIn(entry) });
  const listed = issuers.data ?? [];
  if (listed.length === 0) return null;
  return (
    <div className="stack issuer-sign-in">
      <p className="muted">Or sign in with your organisation's identity provider:</p>
      {listed.map((entry) => (
        <button key={entry.issuer} type="button" className="button" disabled={start.isPending} onClick={() => start.mutate(entry)}>
          Sign in with {issuerLabel(entry.issuer)}
        </button>
      ))}
      {start.isError && (
        <p className="state state-error" role="alert">
          {start.error instanceof SignInError ? start.error.message : 'The sign-in could not be started.'}
        </p>
      )}
    </div>
  );
}
