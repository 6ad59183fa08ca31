// The codes the Colang front end's problems carry (docs/colang.md, "Codes"). Users script against them, so
// a code is never renamed or reused.

/**
 * Every code a Colang problem can carry, with when it occurs.
 *
 * @example
 * COLANG_CODES.COLANG_LIMIT.when // 'A guard nests more than 64 ...'
 */
export const COLANG_CODES = {
  COLANG_SYNTAX: {
    when: 'Anything the grammar does not accept: a tab, a lone carriage return, a line that is no definition or body, a malformed guard or comparison.',
  },
  COLANG_DUPLICATE: { when: 'A second flow for an action, or a second context of a name.' },
  COLANG_CONTEXT_ACTION: { when: "A flow reads a context computed from another action's arguments." },
  COLANG_LIMIT: {
    when: 'A guard nests more than 64 "not"s and parentheses, or names more than 4096 contexts; a context holds more than 1000 comparisons.',
  },
} as const;

export type ColangCode = keyof typeof COLANG_CODES;
