// Lays a sheet's overlay (confirmations, order rules, at_most, checks) over a catalogue's declarations.
import type { Catalogue, CatalogueTool } from './catalogue.ts';
import type { CatalogueOverlay, ToolDeclarations } from './types.ts';

/**
 * The catalogue with the overlay laid over it, without changing either: checks of both apply (the
 * catalogue's first), after/not_after are unioned, at_most is the smaller, and the overlay's confirmation
 * words win over the catalogue's. Entries for tools the catalogue does not hold are ignored here; the
 * sheet's lint `rule_action_unknown` names them. Tools without an entry are returned as they are.
 *
 * @example
 * layOverlay({ tools: [{ name: 'send_receipt', action: 'receipt.send', kind: 'write', at_most: 3 }] },
 *   { format: OVERLAY_FORMAT, tools: { send_receipt: { after: ['charge_card'], at_most: 1 } } })
 * // { tools: [{ name: 'send_receipt', action: 'receipt.send', kind: 'write', at_most: 1, after: ['charge_card'] }] }
 */
export function layOverlay(catalogue: Catalogue, overlay: CatalogueOverlay): Catalogue {
  return {
    tools: catalogue.tools.map((tool) =>
      Object.hasOwn(overlay.tools, tool.name) ? layDeclarations(tool, overlay.tools[tool.name] as ToolDeclarations) : tool,
    ),
  };
}

function layDeclarations(tool: CatalogueTool, extra: ToolDeclarations): CatalogueTool {
  const out: CatalogueTool = { ...tool };
  const confirmation = extra.confirmation ?? tool.confirmation;
  if (confirmation !== undefined) out.confirmation = confirmation;
  const after = union(tool.after, extra.after);
  if (after !== undefined) out.after = after;
  const notAfter = union(tool.not_after, extra.not_after);
  if (notAfter !== undefined) out.not_after = notAfter;
  const atMost = smaller(tool.at_most, extra.at_most);
  if (atMost !== undefined) out.at_most = atMost;
  if (extra.checks !== undefined && extra.checks.length > 0) out.checks = [...(tool.checks ?? []), ...extra.checks];
  return out;
}

function union(a: readonly string[] | undefined, b: readonly string[] | undefined): string[] | undefined {
  if (a === undefined && b === undefined) return undefined;
  const out = [...(a ?? [])];
  for (const name of b ?? []) if (!out.includes(name)) out.push(name);
  return out;
}

function smaller(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
