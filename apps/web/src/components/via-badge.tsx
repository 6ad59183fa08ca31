// The mark of a call that arrived through the MCP gateway (docs/mcp.md, "Calls marked as MCP"), beside its tool on
// the Decisions page and on the inbox's cards; a call to the gate route (via http) has none. Screen readers read
// "via MCP"; the badge shows "MCP".

/** Example: `<ViaBadge via={decision.via} />`. */
export function ViaBadge({ via }: { via: 'http' | 'mcp' }) {
  if (via !== 'mcp') return null;
  return (
    <span className="badge badge-via-mcp" title="Arrived through the MCP gateway">
      <span className="visually-hidden">via </span>MCP
    </span>
  );
}
