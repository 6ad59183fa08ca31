// The Gateways page: every gateway node registered on the data folder, the policy language revision it decides
// and whether it is live (docs/console.md, "Gateways"; docs/deploy.md).

import { PageHeading } from '../../../components/page-heading.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useGateways } from '../api/get-gateways.ts';

export function GatewaysPage() {
  const gateways = useGateways();
  const rows = gateways.data ?? [];
  return (
    <section className="panel stack" aria-labelledby="gateways-heading">
      <PageHeading id="gateways-heading" title="Gateways" />
      <p>
        A policy of language revision 2 or 3 runs only once every live gateway decides it; until then its activation is refused with
        GATEWAYS_NOT_UPGRADED.
      </p>
      {gateways.isPending && <Loading label="Loading the gateways" />}
      {gateways.isError && <ErrorNotice error={gateways.error} />}
      {gateways.isSuccess && rows.length === 0 && <Empty>No gateway is registered on this data folder.</Empty>}
      {rows.length > 0 && (
        <ScrollPane as="div" label="Gateway nodes, scrolls sideways" className="decisions-table-wrap">
          <table className="decisions-table">
            <caption>Gateway nodes, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Version</th>
                <th scope="col">Language revision</th>
                <th scope="col">Started</th>
                <th scope="col">Last seen</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((g) => (
                <tr key={g.id}>
                  <td>
                    <code>{g.id}</code>
                  </td>
                  <td>{g.version}</td>
                  <td>{g.language_revision}</td>
                  <td>
                    <RelativeTime at={g.started_at} />
                  </td>
                  <td>
                    <RelativeTime at={g.last_seen} />
                  </td>
                  <td>{g.live ? 'Live' : 'Not live'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollPane>
      )}
    </section>
  );
}
