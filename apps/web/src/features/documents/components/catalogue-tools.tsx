// A catalogue's tools and their authorized bindings (docs/catalogue.md, "The authorized binding"): a tool
// whose binding changed runs no call until an owner or admin authorizes it, here, after reading it. A tool
// mapped to an upstream MCP server also shows its upstream definition's state and, when a definition waits to
// be authorized, the diff between the one pinned and the one listed (docs/mcp.md, "Pinned tool definitions").
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { RefreshUpstreamsButton } from '../../../components/refresh-upstreams-button.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { definitionStateBadge, definitionStateWords, definitionToReview } from '../../../lib/definition-state.ts';
import { bindingText } from '../api/binding-text.ts';
import { useCatalogueTools } from '../api/get-catalogue-tools.ts';
import { usePostAuthorizeTool } from '../api/post-authorize-tool.ts';
import type { CatalogueToolBinding } from '../api/types.ts';
import { DefinitionDiff } from './definition-diff.tsx';

function authorizeQuestion(tool: CatalogueToolBinding): string {
  const bound = `Run ${tool.name}'s calls as bound now: ${bindingText(tool)}`;
  const upstream = tool.upstream;
  if (upstream === null) return `${bound}?`;
  return `${bound}, offering ${upstream.server}/${upstream.tool} as its upstream defines it now?`;
}

function AuthorizeAction({ catalogue, tool }: { catalogue: string; tool: CatalogueToolBinding }) {
  const authorize = usePostAuthorizeTool();
  return (
    <ConfirmButton
      className="confirm-action"
      label={`Authorize ${tool.name}`}
      question={authorizeQuestion(tool)}
      confirmLabel={`Confirm authorizing ${tool.name}`}
      pending={authorize.isPending}
      error={authorize.error}
      // The definition's digest is the one of the definition shown: a definition listed since is refused.
      onConfirm={() => authorize.mutate({ catalogue, tool: tool.name, digest: tool.digest, upstreamDigest: tool.upstream?.seen?.digest })}
    />
  );
}

function UpstreamState({ upstream }: { upstream: NonNullable<CatalogueToolBinding['upstream']> }) {
  const words = definitionStateWords(upstream.state, upstream.pinned !== null);
  return (
    <>
      <p className="tool-upstream">
        maps to{' '}
        <code>
          {upstream.server}/{upstream.tool}
        </code>
        <span className={definitionStateBadge(upstream.state)}>definition {words}</span>
      </p>
      {upstream.state === 'changed' && (
        <p className="muted">
          The MCP gateway withholds it and denies its calls (TOOL_DEFINITION_CHANGED) until an owner or admin authorizes the definition its
          upstream lists now.
        </p>
      )}
      {upstream.state === 'unseen' && (
        <p className="muted">
          No gateway has listed {upstream.tool} of {upstream.server} yet: refresh the upstreams, then review its definition.
        </p>
      )}
    </>
  );
}

function ToolItem({ catalogue, tool, canAuthorize }: { catalogue: string; tool: CatalogueToolBinding; canAuthorize: boolean }) {
  const was = tool.authorization;
  const upstream = tool.upstream;
  // A tool no gateway has listed has no definition to pin: authorizing it would be refused (UPSTREAM_DEFINITION_UNSEEN).
  const unseen = upstream?.state === 'unseen';
  const toAuthorize = !tool.authorized || definitionToReview(upstream);
  return (
    <li className="version" aria-label={tool.name}>
      <div className="approval-head">
        <code>{tool.name}</code>
        <span>{bindingText(tool)}</span>
        <span className={`badge badge-${tool.authorized ? 'approved' : 'denied'}`}>
          {tool.authorized ? 'authorized' : 'not authorized'}
        </span>
      </div>
      {upstream !== null && <UpstreamState upstream={upstream} />}
      {tool.authorized && was && (
        <p className="muted">
          Authorized by {was.authorized_by_name} <RelativeTime at={was.authorized_at} />
        </p>
      )}
      {!tool.authorized && (
        <p className="muted">
          Its calls are denied (TOOL_NOT_AUTHORIZED) until an owner or admin authorizes this binding
          {was ? `; authorized before: ${bindingText(was.binding)}` : ''}.
        </p>
      )}
      {definitionToReview(upstream) && <DefinitionDiff tool={tool.name} upstream={upstream} />}
      {toAuthorize && canAuthorize && !unseen && <AuthorizeAction catalogue={catalogue} tool={tool} />}
      {unseen && canAuthorize && <RefreshUpstreamsButton />}
    </li>
  );
}

export function CatalogueTools({ id, canAuthorize }: { id: string; canAuthorize: boolean }) {
  const tools = useCatalogueTools(id);
  if (tools.isPending) return <Loading label="Loading the tools" />;
  if (tools.isError) return <ErrorNotice error={tools.error} />;
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label="Tools" className="history">
      {tools.data.tools.map((tool) => (
        <ToolItem key={tool.name} catalogue={id} tool={tool} canAuthorize={canAuthorize} />
      ))}
    </ul>
  );
}
