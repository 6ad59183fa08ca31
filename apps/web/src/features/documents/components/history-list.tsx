// A document's versions as an accessible list: sequence, author, reason, based-on, running and rejected marks.
import type { ReactNode } from 'react';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useHistory } from '../api/get-history.ts';
import type { DocumentVersion } from '../api/types.ts';
import { VersionItem } from './version-item.tsx';

/** `actions` renders each version's actions, when the page offers any. */
export function HistoryList({ id, actions }: { id: string; actions?: (version: DocumentVersion) => ReactNode }) {
  const history = useHistory(id);
  if (history.isPending) return <Loading label="Loading the history" />;
  if (history.isError) return <ErrorNotice error={history.error} />;
  if (history.data.length === 0) return <Empty>No versions stored.</Empty>;
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ol role="list" aria-label="Versions" className="history">
      {[...history.data].reverse().map((version) => (
        <VersionItem key={version.sequence} version={version}>
          {actions?.(version)}
        </VersionItem>
      ))}
    </ol>
  );
}
