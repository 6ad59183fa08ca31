// The Decisions page: the gate's recorded decisions, newest first, with "Load older" for the next page and a
// filter for the calls a shadow decides differently (docs/console.md, "Decisions").
import { useId, useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useDecisions } from '../api/get-decisions.ts';
import { DecisionRow } from './decision-row.tsx';

export function DecisionsPage({ withArguments }: { withArguments: boolean }) {
  const [shadowDiffers, setShadowDiffers] = useState(false);
  const decisions = useDecisions({ shadowDiffers, withArguments });
  const filterId = useId();
  const rows = decisions.data?.pages.flatMap((page) => page.decisions) ?? [];
  return (
    <section className="panel stack" aria-labelledby="decisions-heading">
      <PageHeading id="decisions-heading" title="Decisions" />
      <p className="decisions-filter">
        <input id={filterId} type="checkbox" checked={shadowDiffers} onChange={(e) => setShadowDiffers(e.target.checked)} />
        <label htmlFor={filterId}>Only calls a shadow decides differently</label>
      </p>
      {decisions.isPending && <Loading label="Loading the decisions" />}
      {decisions.isError && <ErrorNotice error={decisions.error} />}
      {decisions.isSuccess && rows.length === 0 && (
        <Empty>{shadowDiffers ? 'No call is decided differently by a shadow.' : 'No decisions recorded yet.'}</Empty>
      )}
      {rows.length > 0 && (
        <ScrollPane as="div" label="Recorded decisions, scrolls sideways" className="decisions-table-wrap">
          <table className="decisions-table">
            <caption>{shadowDiffers ? 'Calls a shadow decides differently, newest first' : 'Recorded decisions, newest first'}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Call</th>
                <th scope="col">Agent</th>
                <th scope="col">Tool</th>
                <th scope="col">Decision</th>
                <th scope="col">Rule or code</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <DecisionRow key={d.call_id} decision={d} />
              ))}
            </tbody>
          </table>
        </ScrollPane>
      )}
      {decisions.hasNextPage && (
        <button type="button" className="button" disabled={decisions.isFetchingNextPage} onClick={() => decisions.fetchNextPage()}>
          {decisions.isFetchingNextPage ? 'Loading older…' : 'Load older'}
        </button>
      )}
    </section>
  );
}
