// What the language gate says of the nodes holding a document back: a policy text's language revision, and
// the lagging nodes named in a sentence and as an error's details (docs/deploy.md, "the language gate").
import { type PolicyRevision, policyRevision } from '@tollgate/engine';
import { readJsonText } from '@tollgate/engine/source';
import type { NodeView } from '../state/nodes/model.ts';

/** A policy text's language revision; text that does not read is revision 1 (it never runs anyway). */
export function textRevision(text: string): PolicyRevision {
  const read = readJsonText(text);
  return read.ok ? policyRevision(read.value) : 1;
}

/** The nodes as an error's details name them (its published member is `gateways`). */
export function nodesJson(nodes: readonly NodeView[]) {
  return nodes.map((g) => ({ id: g.id, version: g.version, language_revision: g.language_revision, last_seen: g.last_seen }));
}

/** The sentence that names the live nodes deciding less than `revision`. */
export function laggingSentence(nodes: readonly NodeView[], revision: PolicyRevision): string {
  const named = nodes.map((g) => `${g.id} (Tollgate ${g.version}, revision ${g.language_revision})`).join(', ');
  return `${nodes.length === 1 ? 'a live gateway decides' : 'live gateways decide'} policy language revision below ${revision}: ${named}`;
}
