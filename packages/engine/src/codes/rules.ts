// Part of the one code registry (index.ts). Codes of rule sheets, their lints and Colang (docs/rule-sheets.md,
// docs/colang.md): lower_snake, the family's convention, as the rule-sheet reference spells its own codes
// (docs/documents.md, "How codes are spelled"). A code is never reused or renamed.
import type { CodeEntry } from './entry.ts';

export const RULES_CODES = {
  rule_sheet_unsupported: {
    seed: 'rule-sheets',
    severity: 'error',
    meaning:
      'The sheet says something the compiler cannot state exactly, or says it outside the YAML subset: a key that is not one of the nine, a second rule for an action, never beside anything, when without requires, a condition with no statable comparison or named twice, a rule that says nothing, an empty sheet, a directive, tag, anchor or alias, a tab, a lone carriage return, a block list, a value below its key, a second document.',
    in: {
      sheet:
        'The sheet says something the compiler cannot state exactly, or says it outside the YAML subset: a key that is not one of the nine, a second rule for an action, never beside anything, when without requires, a condition with no statable comparison or named twice, a rule that says nothing, an empty sheet, a directive, tag, anchor or alias, a tab, a lone carriage return, a block list, a value below its key, a second document.',
    },
  },
  rule_sheet_limit: {
    severity: 'error',
    meaning:
      'A list (requires, after, not_after, check, the conditions of when) holds more than 1000 items; confirmation words are over 500 characters; a value nests more than 16 lists and mappings deep.',
    in: {
      sheet:
        'A list (requires, after, not_after, check, the conditions of when) holds more than 1000 items; confirmation words are over 500 characters; a value nests more than 16 lists and mappings deep.',
    },
  },
  rule_action_unknown: {
    seed: 'rule-sheets',
    severity: 'warning',
    meaning: 'The sheet has a rule for an action the catalogue does not hold.',
    in: {
      lint: 'The sheet has a rule for an action the catalogue does not hold.',
    },
  },
  write_ungoverned: {
    seed: 'rule-sheets',
    severity: 'warning',
    meaning: 'A write the catalogue holds that the sheet never names, so a new write is never left ungoverned by omission.',
    in: {
      lint: 'A write the catalogue holds that the sheet never names, so a new write is never left ungoverned by omission.',
    },
  },
  colang_syntax: {
    severity: 'error',
    meaning:
      'Anything the grammar does not accept: a tab, a lone carriage return, a line that is no definition or body, a malformed guard or comparison.',
    in: {
      colang:
        'Anything the grammar does not accept: a tab, a lone carriage return, a line that is no definition or body, a malformed guard or comparison.',
    },
  },
  colang_duplicate: {
    severity: 'error',
    meaning: 'A second flow for an action, or a second context of a name.',
    in: {
      colang: 'A second flow for an action, or a second context of a name.',
    },
  },
  colang_context_action: {
    severity: 'error',
    meaning: "A flow reads a context computed from another action's arguments.",
    in: {
      colang: "A flow reads a context computed from another action's arguments.",
    },
  },
  colang_limit: {
    severity: 'error',
    meaning:
      'A guard nests more than 64 "not"s and parentheses, or names more than 4096 contexts; a context holds more than 1000 comparisons.',
    in: {
      colang:
        'A guard nests more than 64 "not"s and parentheses, or names more than 4096 contexts; a context holds more than 1000 comparisons.',
    },
  },
} as const satisfies Record<string, CodeEntry>;
