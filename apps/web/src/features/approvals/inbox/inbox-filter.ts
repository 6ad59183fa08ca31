// The inbox's filters (docs/console.md, "Approvals inbox"): by agent, tool and rule, by age (held longer ago than
// an hour or a day), and a text box matching any of those; read from and written to the query of the page's
// address, so a filtered inbox can be linked (`#/approvals?tool=issue_refund&age=1h`).
import type { Approval } from '../api/types.ts';

export type InboxAge = '' | '1h' | '1d';

export interface InboxFilter {
  /** Text matched against the agent, the tool and the rule, case-insensitive. */
  q: string;
  agent: string;
  tool: string;
  rule: string;
  age: InboxAge;
}

export const NO_FILTER: InboxFilter = { q: '', agent: '', tool: '', rule: '', age: '' };

const AGE_MS: Record<Exclude<InboxAge, ''>, number> = { '1h': 3600_000, '1d': 86_400_000 };
const KEYS = ['q', 'agent', 'tool', 'rule', 'age'] as const;

/** The filter a query names; unknown members and ages are ignored. Example: `filterFromQuery('tool=issue_refund&age=1d')`. */
export function filterFromQuery(query: string): InboxFilter {
  const params = new URLSearchParams(query.replace(/^\?/, ''));
  const age = params.get('age');
  return {
    q: params.get('q') ?? '',
    agent: params.get('agent') ?? '',
    tool: params.get('tool') ?? '',
    rule: params.get('rule') ?? '',
    age: age === '1h' || age === '1d' ? age : '',
  };
}

/** The query of a filter, its empty members left out; '' for no filter. Example: `queryOfFilter({ ...NO_FILTER, age: '1h' })` is `'age=1h'`. */
export function queryOfFilter(filter: InboxFilter): string {
  const params = new URLSearchParams();
  for (const key of KEYS) if (filter[key] !== '') params.set(key, filter[key]);
  return params.toString();
}

/** Whether any member of the filter is set. */
export const isFiltered = (filter: InboxFilter) => queryOfFilter(filter) !== '';

/** Whether `approval` passes `filter` at `now` (milliseconds). */
export function matchesFilter(approval: Approval, filter: InboxFilter, now: number): boolean {
  if (filter.agent !== '' && approval.agent !== filter.agent) return false;
  if (filter.tool !== '' && approval.tool !== filter.tool) return false;
  if (filter.rule !== '' && approval.rule !== filter.rule) return false;
  if (filter.age !== '' && now - Date.parse(approval.held_at) < AGE_MS[filter.age]) return false;
  const q = filter.q.trim().toLowerCase();
  if (q === '') return true;
  return [approval.agent, approval.tool, approval.rule ?? ''].some((text) => text.toLowerCase().includes(q));
}

/** A hash with its query replaced by the filter's. Example: `hashWithFilter('#/approvals?age=1h', NO_FILTER)` is `'#/approvals'`. */
export function hashWithFilter(hash: string, filter: InboxFilter): string {
  const path = hash.split('?')[0] ?? '';
  const query = queryOfFilter(filter);
  return query === '' ? path : `${path}?${query}`;
}
