// The main navigation between the console's pages.
import { hrefOf, type Route } from './router.ts';

const LINKS: { label: string; route: Route }[] = [
  { label: 'Documents', route: { page: 'documents', document: null } },
  { label: 'Approvals', route: { page: 'approvals', tab: 'pending' } },
  { label: 'Policy playground', route: { page: 'playground' } },
  { label: 'Simulation', route: { page: 'simulation' } },
  { label: 'Decisions', route: { page: 'decisions' } },
  { label: 'Upstreams', route: { page: 'upstreams' } },
  { label: 'Templates', route: { page: 'templates' } },
  { label: 'Rule sets', route: { page: 'rulesets', ruleset: null } },
  { label: 'Gateways', route: { page: 'gateways' } },
  { label: 'Members & keys', route: { page: 'members' } },
];

export function NavBar({ current: page }: { current: Route['page'] }) {
  // The editor, the Rules page and the history are part of the documents section.
  const current = page === 'edit' || page === 'rules' || page === 'history' ? 'documents' : page;
  return (
    <nav aria-label="Main" className="nav">
      {LINKS.map((link) => (
        <a
          key={link.label}
          href={hrefOf(link.route)}
          className={current === link.route.page ? 'nav-link nav-link-current' : 'nav-link'}
          aria-current={current === link.route.page ? 'page' : undefined}
        >
          {link.label}
        </a>
      ))}
    </nav>
  );
}
