// Picks the page for a route; the only place features meet (they never import each other).

import { Suspense } from 'react';
import { Loading } from '../components/query-state.tsx';
import { ApprovalsPage } from '../features/approvals/components/approvals-page.tsx';
import { useMe } from '../features/auth/api/get-me.ts';
import { DocumentsPage } from '../features/documents/components/documents-page.tsx';
import { FirstRun } from '../features/first-run/components/first-run.tsx';
import { PolicyCheck } from '../features/policy-check/components/policy-check.tsx';
import {
  canActivate,
  canAuthorize,
  canEdit,
  canManageMembers,
  canReadArguments,
  canRefreshUpstreams,
  canRunTrials,
} from '../lib/capabilities.ts';
import { lazyPage } from './lazy-page.tsx';
import { hrefOf, navigate, type Route } from './router.ts';

// The editor brings the sheet compiler and Monaco; both load only when a document is opened for editing.
const EditPage = lazyPage(() => import('./edit-page.tsx').then((m) => m.EditPage));
// The templates gallery brings the engine's templates; it loads when it is opened.
const TemplatesPage = lazyPage(() => import('../features/templates/components/templates-page.tsx').then((m) => m.TemplatesPage));
// The simulation page loads when it is opened, keeping the first load small.
const SimulationPage = lazyPage(() => import('../features/simulation/components/simulation-page.tsx').then((m) => m.SimulationPage));
// The Rules page brings the sheet compiler, the yaml package and Monaco; it loads when a sheet's rules are opened.
const RulesPage = lazyPage(() => import('./rules-page.tsx').then((m) => m.RulesPage));
// The decisions page loads when it is opened.
const DecisionsPage = lazyPage(() => import('../features/decisions/components/decisions-page.tsx').then((m) => m.DecisionsPage));
// The upstreams page loads when it is opened.
const UpstreamsPage = lazyPage(() => import('../features/upstreams/components/upstreams-page.tsx').then((m) => m.UpstreamsPage));
// The rule-sets page brings the engine's catalogue reader for its run panel; it loads when it is opened.
const RulesetsPage = lazyPage(() => import('../features/rulesets/components/rulesets-page.tsx').then((m) => m.RulesetsPage));
// The gateways page loads when it is opened.
const GatewaysPage = lazyPage(() => import('../features/gateways/components/gateways-page.tsx').then((m) => m.GatewaysPage));
// The members and keys page loads when it is opened.
const MembersPage = lazyPage(() => import('../features/members/components/members-page.tsx').then((m) => m.MembersPage));
// The history page brings Monaco's diff editor; it loads only when a history is opened.
const HistoryPage = lazyPage(() => import('../features/documents/components/history-page.tsx').then((m) => m.HistoryPage));

export function Page({ route, memberKey }: { route: Route; memberKey: string }) {
  const me = useMe(memberKey);
  if (route.page === 'playground') return <PolicyCheck />;
  if (route.page === 'simulation') {
    return (
      <Suspense fallback={<Loading label="Loading the simulation" />}>
        <SimulationPage withArguments={canReadArguments(me.data?.role)} canTrial={canRunTrials(me.data?.role)} />
      </Suspense>
    );
  }
  if (route.page === 'decisions') {
    return (
      <Suspense fallback={<Loading label="Loading the decisions" />}>
        <DecisionsPage withArguments={canReadArguments(me.data?.role)} />
      </Suspense>
    );
  }
  if (route.page === 'upstreams') {
    return (
      <Suspense fallback={<Loading label="Loading the upstreams" />}>
        <UpstreamsPage
          canRefresh={canRefreshUpstreams(me.data?.role)}
          documentHref={(document) => hrefOf({ page: 'documents', document })}
        />
      </Suspense>
    );
  }
  if (route.page === 'approvals') {
    const viewer = { id: me.data?.id ?? null, role: me.data?.role ?? null };
    return <ApprovalsPage memberKey={memberKey} viewer={viewer} tab={route.tab} onTab={(tab) => navigate({ page: 'approvals', tab })} />;
  }
  if (route.page === 'edit') {
    const canSave = canEdit(me.data?.role);
    return (
      <Suspense fallback={<Loading label="Loading the editor" />}>
        <EditPage
          id={route.document}
          canSave={canSave}
          backHref={hrefOf({ page: 'documents', document: route.document })}
          rulesHref={hrefOf({ page: 'rules', document: route.document })}
        />
      </Suspense>
    );
  }
  if (route.page === 'templates') {
    return (
      <Suspense fallback={<Loading label="Loading the templates" />}>
        <TemplatesPage canCreate={canEdit(me.data?.role)} editHref={(document) => hrefOf({ page: 'edit', document })} />
      </Suspense>
    );
  }
  if (route.page === 'rules') {
    return (
      <Suspense fallback={<Loading label="Loading the rules form" />}>
        <RulesPage
          id={route.document}
          canSave={canEdit(me.data?.role)}
          backHref={hrefOf({ page: 'documents', document: route.document })}
          editHref={hrefOf({ page: 'edit', document: route.document })}
        />
      </Suspense>
    );
  }
  if (route.page === 'rulesets') {
    return (
      <Suspense fallback={<Loading label="Loading the rule sets" />}>
        <RulesetsPage
          selected={route.ruleset}
          role={me.data?.role ?? null}
          rulesetHref={(ruleset) => hrefOf({ page: 'rulesets', ruleset })}
          historyHref={(document) => hrefOf({ page: 'history', document })}
          editHref={(document) => hrefOf({ page: 'edit', document })}
        />
      </Suspense>
    );
  }
  if (route.page === 'gateways') {
    return (
      <Suspense fallback={<Loading label="Loading the gateways" />}>
        <GatewaysPage />
      </Suspense>
    );
  }
  if (route.page === 'members') {
    // Who may manage is known once GET /v1/me answers; until then the page shows it read-only.
    return (
      <Suspense fallback={<Loading label="Loading the members and keys" />}>
        <MembersPage canManage={canManageMembers(me.data?.role)} me={me.data?.id ?? null} />
      </Suspense>
    );
  }
  if (route.page === 'history') {
    const canManage = canActivate(me.data?.role);
    return (
      <Suspense fallback={<Loading label="Loading the history" />}>
        <HistoryPage
          id={route.document}
          canManage={canManage}
          me={me.data?.name ?? null}
          backHref={hrefOf({ page: 'documents', document: route.document })}
        />
      </Suspense>
    );
  }
  const documents = (
    <DocumentsPage
      selected={route.document}
      onSelect={(document) => navigate({ page: 'documents', document })}
      editHref={(document) => hrefOf({ page: 'edit', document })}
      historyHref={(document) => hrefOf({ page: 'history', document })}
      rulesHref={(document) => hrefOf({ page: 'rules', document })}
      canAuthorize={canAuthorize(me.data?.role)}
    />
  );
  // The landing page greets an owner or admin of a workspace where no agent runs with the first run's path
  // (docs/console.md, "First run"): only they may import, activate and authorize.
  // One shape whether or not the path shows, so the documents page (and its heading, which may hold the focus) is
  // never mounted again when the member's role arrives.
  const greets = route.document === null && canActivate(me.data?.role);
  return (
    <div className="stack">
      {greets && (
        <FirstRun
          historyHref={(document) => hrefOf({ page: 'history', document })}
          simulationHref={hrefOf({ page: 'simulation' })}
          upstreamsHref={hrefOf({ page: 'upstreams' })}
          membersHref={hrefOf({ page: 'members' })}
        />
      )}
      {documents}
    </div>
  );
}
