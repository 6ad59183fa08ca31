// The one registry of the codes the rule set, agent and settings validators and validateDocument add.
// Users script against these, so a code is never renamed or reused; docs/documents.md lists each one.
import { codeView } from '../codes/index.ts';

/**
 * Every code a problem of a rule set, agent or settings file can carry, with when it occurs. Codes shared
 * with policy@1 and the catalogue mean what they mean there; catalogue, sheet, Colang and policy problems
 * keep their own registries (CATALOGUE_CODES, rule_sheet_unsupported, colang_*, POLICY_CODES).
 *
 * @example
 * DOCUMENT_CODES.RULESET_EMPTY.when // 'A rule set pins nothing ...'
 */
export const DOCUMENT_CODES = codeView('document');

export type DocumentCode = keyof typeof DOCUMENT_CODES;
