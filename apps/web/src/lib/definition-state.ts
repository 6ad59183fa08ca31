// A mapped tool's upstream definition state in words (docs/mcp.md, "Pinned tool definitions"): the catalogue's
// tools and the Upstreams page say it the same way.
import type { components } from './api/schema';

export type DefinitionState = components['schemas']['UpstreamToolMapping']['state'];
export type UpstreamDefinition = NonNullable<components['schemas']['CatalogueToolUpstream']>;

/**
 * The state of a tool's upstream definition, as a person reads it. `pinned` says whether a definition was ever
 * authorized for the tool; the Upstreams page does not know (null), so "changed" keeps both readings there.
 *
 * @example
 * definitionStateWords('changed', true) // 'changed since authorized'
 * definitionStateWords('changed', false) // 'not authorized yet'
 */
export function definitionStateWords(state: DefinitionState, pinned: boolean | null): string {
  if (state === 'authorized') return 'authorized';
  if (state === 'unseen') return 'not listed yet: refresh';
  if (pinned === null) return 'changed or not authorized yet';
  return pinned ? 'changed since authorized' : 'not authorized yet';
}

/** The badge class of a state: authorized reads as approved; a definition to review as denied; unseen as waiting. */
export function definitionStateBadge(state: DefinitionState): string {
  if (state === 'authorized') return 'badge badge-approved';
  return state === 'unseen' ? 'badge badge-expired' : 'badge badge-denied';
}

/**
 * A definition as the diff shows it: two-space JSON. The API gives its members sorted canonically, so two
 * definitions differ in the diff only where they differ.
 *
 * @example
 * definitionText({ name: 'refund', inputSchema: { type: 'object' } }) // '{\n  "name": "refund",\n  "inputSchema": ...'
 */
export function definitionText(definition: Record<string, unknown> | null | undefined): string {
  return definition ? JSON.stringify(definition, null, 2) : '';
}

/**
 * Whether the tool's definition waits for an owner or admin to review and authorize it: another than the one
 * pinned, or none pinned, was listed. An unseen tool has nothing to review yet (refresh first).
 */
export function definitionToReview(upstream: UpstreamDefinition | null): upstream is UpstreamDefinition & {
  seen: NonNullable<UpstreamDefinition['seen']>;
} {
  return upstream !== null && upstream.state === 'changed' && upstream.seen !== null;
}

/** A definition's description, the first thing an agent reads of a tool; '' when it has none. */
export function definitionDescription(definition: Record<string, unknown>): string {
  return typeof definition.description === 'string' ? definition.description : '';
}
