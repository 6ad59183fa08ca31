// The codes a rule sheet's refusals carry (docs/rule-sheets.md, "Codes"). Users script against them, so a
// code is never renamed or reused. Lints keep their own registry (LINT_CODES).
import { codeView } from '../codes/index.ts';

/**
 * Every code a sheet's refusal can carry, with when it occurs.
 *
 * @example
 * SHEET_CODES.rule_sheet_limit.when // 'A list names more than 1000 ...'
 */
export const SHEET_CODES = codeView('sheet');

export type SheetCode = keyof typeof SHEET_CODES;
