// A tiny hash router: #/documents[/<id>], #/edit/<id>, #/history/<id>, #/approvals[/decided], #/playground, #/simulation, #/decisions, #/upstreams, #/templates, #/rulesets[/<id>], #/gateways, #/members.
import { useEffect, useState } from 'react';
import { mayLeave } from '../lib/leave-guard.ts';

export type Route =
  | { page: 'documents'; document: string | null }
  | { page: 'edit'; document: string }
  | { page: 'history'; document: string }
  | { page: 'rules'; document: string }
  | { page: 'approvals'; tab: 'pending' | 'decided' }
  | { page: 'playground' }
  | { page: 'simulation' }
  | { page: 'decisions' }
  | { page: 'upstreams' }
  | { page: 'templates' }
  | { page: 'gateways' }
  | { page: 'members' }
  | { page: 'rulesets'; ruleset: string | null };

/**
 * Reads a route from a hash; a query after `?` is the page's own (the inbox's filters) and names no route.
 * Example: `parseRoute('#/documents/policies%2Fa.json')`.
 */
export function parseRoute(hash: string): Route {
  const [page, rest] = (hash.split('?')[0] ?? '').replace(/^#\/?/, '').split(/\/(.*)/s, 2);
  if (page === 'approvals') return { page: 'approvals', tab: rest === 'decided' ? 'decided' : 'pending' };
  if (page === 'playground') return { page: 'playground' };
  if (page === 'simulation') return { page: 'simulation' };
  if (page === 'decisions') return { page: 'decisions' };
  if (page === 'upstreams') return { page: 'upstreams' };
  if (page === 'templates') return { page: 'templates' };
  if (page === 'gateways') return { page: 'gateways' };
  if (page === 'members') return { page: 'members' };
  if (page === 'rulesets') return { page: 'rulesets', ruleset: rest ? decodeURIComponent(rest) : null };
  if (page === 'edit' && rest) return { page: 'edit', document: decodeURIComponent(rest) };
  if (page === 'history' && rest) return { page: 'history', document: decodeURIComponent(rest) };
  if (page === 'rules' && rest) return { page: 'rules', document: decodeURIComponent(rest) };
  return { page: 'documents', document: rest ? decodeURIComponent(rest) : null };
}

/** The hash for a route; document ids travel as one encoded segment. */
export function hrefOf(route: Route): string {
  if (route.page === 'approvals') return route.tab === 'decided' ? '#/approvals/decided' : '#/approvals';
  if (route.page === 'playground') return '#/playground';
  if (route.page === 'simulation') return '#/simulation';
  if (route.page === 'decisions') return '#/decisions';
  if (route.page === 'upstreams') return '#/upstreams';
  if (route.page === 'templates') return '#/templates';
  if (route.page === 'gateways') return '#/gateways';
  if (route.page === 'members') return '#/members';
  if (route.page === 'rulesets') return route.ruleset === null ? '#/rulesets' : `#/rulesets/${encodeURIComponent(route.ruleset)}`;
  if (route.page === 'edit') return `#/edit/${encodeURIComponent(route.document)}`;
  if (route.page === 'history') return `#/history/${encodeURIComponent(route.document)}`;
  if (route.page === 'rules') return `#/rules/${encodeURIComponent(route.document)}`;
  return route.document === null ? '#/documents' : `#/documents/${encodeURIComponent(route.document)}`;
}

export function navigate(route: Route): void {
  window.location.hash = hrefOf(route);
}

/**
 * The current route, following hash changes. Leaving a page with unsaved text asks first (lib/leave-guard.ts);
 * a refusal puts the address back without a new history entry, and the page stays as it was.
 */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    let current = window.location.hash;
    const follow = () => {
      const next = window.location.hash;
      if (hrefOf(parseRoute(next)) !== hrefOf(parseRoute(current)) && !mayLeave()) {
        window.history.replaceState(window.history.state, '', current === '' ? window.location.pathname : current);
        return;
      }
      current = next;
      setRoute(parseRoute(next));
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return route;
}
