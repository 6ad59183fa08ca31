// The console's shell: header (product, member, sign out), navigation and the routed page, behind sign-in.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { MemberBadge } from '../features/auth/components/member-badge.tsx';
import { SignInForm } from '../features/auth/components/sign-in-form.tsx';
import { StoreHealthBanner } from '../features/health/components/store-health-banner.tsx';
import { PolicyCheck } from '../features/policy-check/components/policy-check.tsx';
import { clearSessionKey, followSessionKey, readSessionKey, writeSessionKey } from '../lib/session-key.ts';
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
  const [key, setKey] = useState(readSessionKey);
  const signIn = (accepted: string) => {
    writeSessionKey(accepted);
    setKey(accepted);
  };
  const signOut = () => {
    clearSessionKey();
    client.clear();
    setKey(null);
  };
  useFocusHeadingOnNavigate(route, key !== null);
  // Another tab signing in or out changes this tab too (the key is shared, docs/console.md).
  useEffect(
    () =>
      followSessionKey((next) => {
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
          {key !== null ? (
            <Page route={route} memberKey={key} />
          ) : route.page === 'playground' ? (
            <PolicyCheck />
          ) : (
            <SignInForm onSignedIn={signIn} />
          )}
        </RouteBoundary>
      </main>
    </div>
  );
}
