// The console's shell: header (product, member, sign out), navigation and the routed page, behind sign-in.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { CALLBACK_PATH } from '../features/auth/api/oidc-sign-in.ts';
import { MemberBadge } from '../features/auth/components/member-badge.tsx';
import { SignInCallback } from '../features/auth/components/sign-in-callback.tsx';
import { SignInForm, type SignInNotice } from '../features/auth/components/sign-in-form.tsx';
import { StoreHealthBanner } from '../features/health/components/store-health-banner.tsx';
import { PolicyCheck } from '../features/policy-check/components/policy-check.tsx';
import { clearSessionKey, followSessionKey, readSessionKey, writeSessionKey } from '../lib/session-key.ts';
import {
  clearTokenSession,
  endTokenSession,
  msUntil,
  onSessionEnd,
  readTokenSession,
  type TokenSession,
  writeTokenSession,
} from '../lib/token-session.ts';
import { focusMainHeading, useFocusHeadingOnNavigate } from './focus-heading.ts';
import { NavBar } from './nav-bar.tsx';
import { Page } from './pages.tsx';
import { Providers } from './providers.tsx';
import { RouteBoundary } from './route-boundary.tsx';
import { hrefOf, useRoute } from './router.ts';

export function App() {
  return (
    <Providers>
      <Shell />
    </Providers>
  );
}

function Shell() {
  const route = useRoute();
  const client = useQueryClient();
  // The bearer in use: this tab's identity-provider token (lib/token-session.ts), else the shared member key.
  const [key, setKey] = useState(() => readTokenSession()?.token ?? readSessionKey());
  const [notice, setNotice] = useState<SignInNotice | null>(null);
  const [callback, setCallback] = useState(() => window.location.pathname === CALLBACK_PATH);
  const signIn = (accepted: string) => {
    writeSessionKey(accepted);
    setNotice(null);
    setKey(accepted);
  };
  const signOut = () => {
    clearSessionKey();
    clearTokenSession();
    client.clear();
    setNotice(null);
    setKey(null);
  };
  const finishCallback = (outcome: { session: TokenSession } | { error: string }) => {
    // Off the callback address at once: the code and state are spent and must not be replayed by a reload.
    window.history.replaceState(null, '', '/');
    setCallback(false);
    if ('session' in outcome) {
      writeTokenSession(outcome.session);
      setNotice(null);
      setKey(outcome.session.token);
    } else {
      setNotice({ kind: 'failed', text: outcome.error });
    }
  };
  // A token session ends with the token (docs/console.md, "Signing in"): at its expiry, or on a 401 TOKEN_EXPIRED
  // (lib/api/client.ts); what was fetched with it goes too.
  useEffect(
    () =>
      onSessionEnd((end) => {
        client.clear();
        setKey(null);
        setNotice(end === 'expired' ? { kind: 'ended', text: 'Your session ended: the sign-in expired. Sign in again.' } : null);
      }),
    [client],
  );
  useEffect(() => {
    const session = readTokenSession();
    if (session === null || session.token !== key) return;
    const timer = window.setTimeout(() => endTokenSession('expired'), msUntil(session.expiresAt, Date.now()));
    return () => window.clearTimeout(timer);
  }, [key]);
  useFocusHeadingOnNavigate(route, key !== null);
  // Another tab signing in or out changes this tab too (the key is shared, docs/console.md).
  useEffect(
    () =>
      followSessionKey((next) => {
        // A token session is this tab's own; another tab's key does not replace it.
        if (readTokenSession() !== null) return;
        if (next === null) client.clear();
        setKey(next);
      }),
    [client],
  );
  return (
    <div className="shell">
      {/* The first stop for Tab; the hash router owns the URL's fragment, so it moves focus itself. */}
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link by convention; "#content" would be read as a route. */}
      <a
        className="skip-link"
        href="#content"
        onClick={(event) => {
          event.preventDefault();
          focusMainHeading();
        }}
      >
        Skip to content
      </a>
      <header className="masthead">
        {/* Each page's own title is its h1; the product name is the banner's. */}
        <p className="brand">
          <span className="brand-mark" aria-hidden="true" />
          Tollgate
        </p>
        {key !== null && <MemberBadge memberKey={key} onSignOut={signOut} />}
      </header>
      <NavBar current={route.page} />
      <StoreHealthBanner />
      <main id="content">
        <RouteBoundary route={hrefOf(route)}>
          {/* The playground runs the engine in the browser and needs no key. */}
          {callback ? (
            <SignInCallback onDone={finishCallback} />
          ) : key !== null ? (
            <Page route={route} memberKey={key} />
          ) : route.page === 'playground' ? (
            <PolicyCheck />
          ) : (
            <SignInForm onSignedIn={signIn} notice={notice} />
          )}
        </RouteBoundary>
      </main>
    </div>
  );
}
