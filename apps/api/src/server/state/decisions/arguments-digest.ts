// The digest of a call's arguments, recorded with every decision and kept after the arguments themselves are
// forgotten (model.ts, DecisionRow): a held call is claimed only with the arguments it was approved for
// (gate/claim-held-call.ts). Apart from the model because it hashes with Node's crypto.
import { hash } from 'node:crypto';
import { canonicalJson } from '@tollgate/engine';

/** The sha-256 (hex) of the arguments' canonical JSON (sorted keys, no spaces). */
export function argumentsDigest(args: unknown): string {
  return hash('sha256', canonicalJson(args), 'hex');
}
