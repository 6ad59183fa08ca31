// A document's versions as an accessible list: sequence, author, reason, based-on, running and rejected marks.
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useHistory } from '../api/get-history.ts';
import { VersionItem } from './version-item.tsx';

export function HistoryList({ id }: { id: string }) {
  const history = useHistory(id);
  if (history.isPending) return <Loading label="Loading the history" />;
  if (history.isError) return <ErrorNotice error={history.error} />;
  if (history.data.length === 0) return <Empty>No versions stored.</Empty>;
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ol role="list" aria-label="Versions" className="history">
      {[...history.data].reverse().map((version) => (
        <VersionItem key={version.sequence} version={version} />
      ))}
    </ol>
  );
}
