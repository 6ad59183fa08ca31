// Picks the page for a route; the only place features meet (they never import each other).

import { ApprovalsPage } from '../features/approvals/components/approvals-page.tsx';
import { useMe } from '../features/auth/api/get-me.ts';
import { DocumentsPage } from '../features/documents/components/documents-page.tsx';
import { PolicyCheck } from '../features/policy-check/components/policy-check.tsx';
import { navigate, type Route } from './router.ts';

export function Page({ route, memberKey }: { route: Route; memberKey: string }) {
  const me = useMe(memberKey);
  if (route.page === 'playground') return <PolicyCheck />;
  if (route.page === 'approvals') {
    const viewer = { id: me.data?.id ?? null, role: me.data?.role ?? null };
    return <ApprovalsPage memberKey={memberKey} viewer={viewer} tab={route.tab} onTab={(tab) => navigate({ page: 'approvals', tab })} />;
  }
  return <DocumentsPage selected={route.document} onSelect={(document) => navigate({ page: 'documents', document })} />;
}
