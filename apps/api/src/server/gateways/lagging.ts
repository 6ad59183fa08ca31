// What the language gate says of the nodes holding a document back: a policy text's language revision, and
// the lagging nodes named in a sentence and as an error's details (docs/deploy.md, "the language gate").
import { policyRevision } from '@tollgate/engine';
import { readJsonText } from '@tollgate/engine/source';
import type { GatewayView, LanguageRevision } from '../state/gateways.ts';

/** A policy text's language revision; text that does not read is revision 1 (it never runs anyway). */
export function textRevision(text: string): LanguageRevision {
  const read = readJsonText(text);
  return read.ok ? policyRevision(read.value) : 1;
}

/** The gateways as an error's details name them. */
export function gatewaysJson(gateways: readonly GatewayView[]) {
  return gateways.map((g) => ({ id: g.id, version: g.version, language_revision: g.language_revision, last_seen: g.last_seen }));
}

/** The sentence that names the live nodes deciding less than `revision`. */
export function laggingSentence(gateways: readonly GatewayView[], revision: LanguageRevision): string {
  const named = gateways.map((g) => `${g.id} (Tollgate ${g.version}, revision ${g.language_revision})`).join(', ');
  return `${gateways.length === 1 ? 'a live gateway decides' : 'live gateways decide'} policy language revision below ${revision}: ${named}`;
}
