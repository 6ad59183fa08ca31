// The Upstreams page: each MCP server of the running mcp/servers.yaml, the tools it was last seen offering and
// the catalogue tools that map to each, with their definitions' state (docs/console.md, "Upstreams").

import { PageHeading } from '../../../components/page-heading.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { RefreshUpstreamsButton } from '../../../components/refresh-upstreams-button.tsx';
import { useUpstreams } from '../api/get-upstreams.ts';
import { UpstreamServerPanel } from './upstream-server.tsx';

interface UpstreamsPageProps {
  /** Whether the member may ask every upstream now (owners and admins). */
  canRefresh: boolean;
  /** Where a catalogue document is read, with its tools. */
  documentHref: (id: string) => string;
}

export function UpstreamsPage({ canRefresh, documentHref }: UpstreamsPageProps) {
  const upstreams = useUpstreams();
  const servers = upstreams.data?.servers ?? [];
  return (
    <div className="stack">
      <section className="panel stack" aria-labelledby="upstreams-heading">
        <div className="panel-head">
          <PageHeading id="upstreams-heading" title="Upstreams" />
          {canRefresh && <RefreshUpstreamsButton />}
        </div>
        <p className="muted">
          The MCP servers the gateway forwards allowed calls to
          {upstreams.data?.sequence ? ` (mcp/servers.yaml, version ${upstreams.data.sequence})` : ''}, the tools each was last seen
          offering, and the catalogue tools that map to them. The gateway offers a mapped tool only while its definition is the one
          authorized.
        </p>
        {upstreams.isPending && <Loading label="Loading the upstreams" />}
        {upstreams.isError && <ErrorNotice error={upstreams.error} />}
        {upstreams.isSuccess && servers.length === 0 && (
          <Empty>
            {upstreams.data.sequence === null
              ? 'No upstreams: write mcp/servers.yaml (docs/mcp.md, "What to write").'
              : `No upstreams: mcp/servers.yaml (version ${upstreams.data.sequence}) lists no server.`}
          </Empty>
        )}
      </section>
      {servers.map((server) => (
        <UpstreamServerPanel key={server.name} server={server} documentHref={documentHref} />
      ))}
    </div>
  );
}
