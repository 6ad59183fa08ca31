// One upstream server: its transport, why a refresh could not list it, the tools it was last seen offering
// with the catalogue tools mapped to each, and the catalogue tools mapped to a tool it was never seen offering.
import { useId } from 'react';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { definitionDescription, definitionStateBadge, definitionStateWords } from '../../../lib/definition-state.ts';
import type { UpstreamServer, UpstreamTool, UpstreamToolMapping } from '../api/get-upstreams.ts';

type DocumentHref = (id: string) => string;

function MappingList({ label, mappings, documentHref }: { label: string; mappings: UpstreamToolMapping[]; documentHref: DocumentHref }) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label={label} className="upstream-mappings">
      {mappings.map((m) => (
        <li key={`${m.catalogue}\u0000${m.tool}`}>
          <a href={documentHref(m.catalogue)}>{m.catalogue}</a> <code>{m.tool}</code>{' '}
          <span className={definitionStateBadge(m.state)}>definition {definitionStateWords(m.state, null)}</span>
        </li>
      ))}
    </ul>
  );
}

function ToolItem({ server, tool, documentHref }: { server: string; tool: UpstreamTool; documentHref: DocumentHref }) {
  const description = definitionDescription(tool.definition);
  return (
    <li className="version" aria-label={tool.name}>
      <div className="version-head">
        <code>{tool.name}</code>
        <span className="version-time muted">
          first listed as shown <RelativeTime at={tool.seen_at} />
        </span>
      </div>
      {description !== '' && <p className="version-reason">{description}</p>}
      {tool.mapped_by.length === 0 ? (
        <p className="muted">No catalogue tool maps to it: the gateway never offers it.</p>
      ) : (
        <MappingList label={`Catalogue tools mapped to ${server}/${tool.name}`} mappings={tool.mapped_by} documentHref={documentHref} />
      )}
    </li>
  );
}

export function UpstreamServerPanel({ server, documentHref }: { server: UpstreamServer; documentHref: DocumentHref }) {
  const headingId = useId();
  return (
    <section className="panel stack" aria-labelledby={headingId}>
      <div className="version-head">
        <h2 id={headingId} className="panel-subtitle">
          {server.name}
        </h2>
        <span className="badge">{server.transport === 'stdio' ? 'stdio' : 'Streamable HTTP'}</span>
      </div>
      {server.error && (
        <p className="state state-error" role="alert">
          The refresh could not list {server.name}: {server.error.message} ({server.error.code})
        </p>
      )}
      {server.tools.length === 0 ? (
        <p className="muted">No tools seen yet: no gateway or refresh has listed this server.</p>
      ) : (
        // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
        <ul role="list" aria-label={`Tools of ${server.name}`} className="history">
          {server.tools.map((tool) => (
            <ToolItem key={tool.name} server={server.name} tool={tool} documentHref={documentHref} />
          ))}
        </ul>
      )}
      {server.unmapped.length > 0 && (
        <div>
          <h3 className="definition-diff-title">Mapped to a tool {server.name} was not seen offering</h3>
          <MappingList
            label={`Catalogue tools mapped to tools ${server.name} was not seen offering`}
            mappings={server.unmapped}
            documentHref={documentHref}
          />
        </div>
      )}
    </section>
  );
}
