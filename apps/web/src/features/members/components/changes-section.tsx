// The record of changes to members and keys (owners and admins): who did what to whom and when, newest first,
// a page at a time.
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { MaybeRelativeTime } from '../../../components/relative-time.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useIdentityChanges } from '../api/get-identity-changes.ts';
import { detailsOf } from '../key-forms.ts';

export function ChangesSection() {
  const changes = useIdentityChanges(true);
  const rows = changes.data?.pages.flatMap((page) => page.changes) ?? [];
  return (
    <section className="stack" aria-labelledby="changes-heading">
      <h2 id="changes-heading">Changes</h2>
      {changes.isPending && <Loading label="Loading the changes" />}
      {changes.isError && <ErrorNotice error={changes.error} />}
      {changes.isSuccess && rows.length === 0 && <Empty>No change is recorded yet.</Empty>}
      {rows.length > 0 && (
        <ScrollPane as="div" label="Changes, scrolls sideways" className="decisions-table-wrap">
          <table className="decisions-table changes-table">
            <caption>Changes to members and keys, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Subject</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((change, index) => (
                // A change has no id; nothing in a row holds state, so a key shifting when a newer change arrives costs a re-render only.
                <tr key={`${change.at}-${index}`}>
                  <td>
                    <MaybeRelativeTime at={change.at} />
                  </td>
                  <td>{change.actor}</td>
                  <td>
                    <code>{change.action}</code>
                  </td>
                  <td>{change.subject}</td>
                  <td>{detailsOf(change)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollPane>
      )}
      {changes.hasNextPage && (
        <div className="actions">
          <button
            type="button"
            className="button"
            aria-disabled={changes.isFetchingNextPage}
            onClick={() => !changes.isFetchingNextPage && changes.fetchNextPage()}
          >
            {changes.isFetchingNextPage ? 'Loading more…' : 'Load more'}
          </button>
        </div>
      )}
    </section>
  );
}
