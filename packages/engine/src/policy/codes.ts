// policy@1's codes (validation errors, warnings, decision and template codes), a view of the one code
// registry (packages/engine/src/codes/index.ts). docs/policy.md's tables are rendered from it.
import { type PolicyKind, policyCodeView } from '../codes/index.ts';

/** A policy@1 code's group in docs/policy.md and what it is for. */
export interface CodeEntry {
  kind: PolicyKind;
  when: string;
}

/** policy@1's codes: a view of the one registry (packages/engine/src/codes/index.ts). */
export const POLICY_CODES = policyCodeView();

export type PolicyCode = keyof typeof POLICY_CODES;
