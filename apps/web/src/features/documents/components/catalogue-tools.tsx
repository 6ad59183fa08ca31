// A catalogue's tools and their authorized bindings (docs/catalogue.md, "The authorized binding"): a tool
// whose binding changed runs no call until an owner or admin authorizes it, here, after reading it.
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { bindingText } from '../api/binding-text.ts';
import { useCatalogueTools } from '../api/get-catalogue-tools.ts';
import { usePostAuthorizeTool } from '../api/post-authorize-tool.ts';
import type { CatalogueToolBinding } from '../api/types.ts';

function AuthorizeAction({ catalogue, tool }: { catalogue: string; tool: CatalogueToolBinding }) {
  const authorize = usePostAuthorizeTool();
  return (
    <ConfirmButton
      className="confirm-action"
      label={`Authorize ${tool.name}`}
      question={`Run ${tool.name}'s calls as bound now: ${bindingText(tool)}?`}
      confirmLabel={`Confirm authorizing ${tool.name}`}
      pending={authorize.isPending}
      error={authorize.error}
      onConfirm={() => authorize.mutate({ catalogue, tool: tool.name, digest: tool.digest })}
    />
  );
}

function ToolItem({ catalogue, tool, canAuthorize }: { catalogue: string; tool: CatalogueToolBinding; canAuthorize: boolean }) {
  const was = tool.authorization;
  return (
    <li className="version" aria-label={tool.name}>
      <div className="approval-head">
        <code>{tool.name}</code>
        <span>{bindingText(tool)}</span>
        <span className={`badge badge-${tool.authorized ? 'approved' : 'denied'}`}>
          {tool.authorized ? 'authorized' : 'not authorized'}
        </span>
      </div>
      {tool.authorized && was && (
        <p className="muted">
          Authorized by {was.authorized_by_name} {new Date(was.authorized_at).toLocaleString()}
        </p>
      )}
      {!tool.authorized && (
        <p className="muted">
          Its calls are denied (TOOL_NOT_AUTHORIZED) until an owner or admin authorizes this binding
          {was ? `; authorized before: ${bindingText(was.binding)}` : ''}.
        </p>
      )}
      {!tool.authorized && canAuthorize && <AuthorizeAction catalogue={catalogue} tool={tool} />}
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
