// The digest of a call's arguments, recorded with every decision and kept after the arguments themselves are
// forgotten (model.ts, DecisionRow): a held call is claimed only with the arguments it was approved for
// (gate/claim-held-call.ts). Apart from the model because it hashes with Node's crypto.
import { hash } from 'node:crypto';
import { canonicalJson } from '@tollgate/engine';

/** The sha-256 (hex) of the arguments' canonical JSON (sorted keys, no spaces). */
export function argumentsDigest(args: unknown): string {
  return canonicalTextDigest(canonicalJson(args));
}

/** The digest of arguments whose canonical JSON is already written (the gate's body reader gives it). */
export function canonicalTextDigest(canonical: string): string {
  return hash('sha256', canonical, 'hex');
}
