// The inbox's filter held in the address's query (inbox-filter.ts): read as the page opens and whenever the
// address changes, written back in place (no new history entry for each letter typed), and kept when the tab
// changes, so a filtered inbox can be linked and stays filtered on both tabs.
import { useCallback, useEffect, useState } from 'react';
import { filterFromQuery, hashWithFilter, type InboxFilter } from './inbox-filter.ts';

const queryOfHash = () => window.location.hash.split('?')[1] ?? '';
const pathOfHash = () => window.location.hash.split('?')[0] ?? '';

export function useInboxFilter(tab: string): [InboxFilter, (filter: InboxFilter) => void] {
  const [filter, setFilter] = useState(() => filterFromQuery(queryOfHash()));
  useEffect(() => {
    let path = pathOfHash();
    // A new address with a query names the filter; a tab's own address (another path, no query) keeps it.
    const follow = () => {
      const moved = pathOfHash() !== path;
      path = pathOfHash();
      if (!moved || queryOfHash() !== '') setFilter(filterFromQuery(queryOfHash()));
    };
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  // A tab's address carries no query: the filter is written back onto it.
  useEffect(() => {
    void tab;
    const hash = hashWithFilter(window.location.hash, filter);
    if (hash !== window.location.hash) window.history.replaceState(window.history.state, '', hash);
  }, [tab, filter]);
  const change = useCallback((next: InboxFilter) => setFilter(next), []);
  return [filter, change];
}
