// The codes a rule sheet's refusals carry (docs/rule-sheets.md, "Codes"). Users script against them, so a
// code is never renamed or reused. Lints keep their own registry (LINT_CODES).

/**
 * Every code a sheet's refusal can carry, with when it occurs.
 *
 * @example
 * SHEET_CODES.RULE_SHEET_LIMIT.when // 'A list names more than 1000 ...'
 */
export const SHEET_CODES = {
  RULE_SHEET_UNSUPPORTED: {
    when: 'The sheet says something the compiler cannot state exactly, or says it outside the YAML subset: a key that is not one of the nine, a second rule for an action, never beside anything, when without requires, a condition with no statable comparison or named twice, a rule that says nothing, an empty sheet, a directive, tag, anchor or alias, a tab, a lone carriage return, a block list, a value below its key, a second document.',
  },
  RULE_SHEET_LIMIT: {
    when: 'A list (requires, after, not_after, check, the conditions of when) holds more than 1000 items; confirmation words are over 500 characters; a value nests more than 16 lists and mappings deep.',
  },
} as const;

export type SheetCode = keyof typeof SHEET_CODES;
