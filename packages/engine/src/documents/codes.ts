// The one registry of the codes the rule set, agent and settings validators and validateDocument add.
// Users script against these, so a code is never renamed or reused; docs/documents.md lists each one.

/**
 * Every code a problem of a rule set, agent or settings file can carry, with when it occurs. Codes shared
 * with policy@1 and the catalogue mean what they mean there; catalogue, sheet, Colang and policy problems
 * keep their own registries (CATALOGUE_CODES, RULE_SHEET_UNSUPPORTED, colang_*, POLICY_CODES).
 *
 * @example
 * DOCUMENT_CODES.RULESET_EMPTY.when // 'A rule set pins nothing ...'
 */
export const DOCUMENT_CODES = {
  DOCUMENT_KIND_UNKNOWN: {
    when: 'The id names no kind of document: it matches none of the path patterns (catalogue.yaml, sheets/*.rules.yaml, ...).',
  },
  // Reading the text.
  NOT_JSON: { when: 'A rule set is not JSON; the range gives the line and column.' },
  NOT_YAML: { when: 'An agent or settings file is not YAML, holds a second document, or names a key twice; the range gives the line.' },
  TOO_LARGE: { when: 'The text is longer than 4 MiB; it is refused unread.' },
  TOO_DEEP: { when: 'JSON arrays and objects nest deeper than 64 levels.' },
  DUPLICATE_MEMBER: { when: 'A JSON object names a member twice.' },
  INEXACT_NUMBER: { when: 'A number cannot be read exactly (an exponent, a fraction in JSON, beyond 2^53-1).' },
  UNSUPPORTED_YAML: { when: 'A YAML alias; write the value out.' },
  // Structure.
  INVALID_TYPE: {
    when: 'A value has the wrong type: the document or an entry is not a mapping, a list is not a list, a flag is not true or false.',
  },
  MISSING_MEMBER: {
    when: 'A required member is absent: a rule set’s name, status or pins; a pin’s document; an agent’s catalogue or delegation; delegation actions; a spending limit’s amount or currency; an observe window’s members; approved_rulesets_only.',
  },
  UNKNOWN_MEMBER: { when: 'A member the format does not define, at any level.' },
  INVALID_VALUE: {
    when: 'A value outside its allowed set: a status, disclosure or relax; an empty or overlong name, description or tag; a sequence that is not a positive integer; a window name; a rule set replacing itself.',
  },
  EMPTY_LIST: { when: 'delegation actions is an empty list.' },
  LIST_TOO_LONG: {
    when: 'A list holds more items than allowed (pins 100, tags 32, delegation actions 64, observe windows 32, approved rule sets 1000).',
  },
  DUPLICATE_VALUE: { when: 'A list names the same value twice (a tag, an action pattern, an approved rule set, an observe window name).' },
  // References to other documents.
  WRONG_DOCUMENT_KIND: {
    when: 'A member names a document id of another kind: a pin that is not a policy, sheet or Colang id; an agent’s catalogue, rulebook, policy or ruleset; an approved rule set that is not a rule set id.',
  },
  REFERENCE_NOT_FOUND: { when: 'Given a store to ask, a named document, or a pinned version of it, does not exist.' },
  // Rule sets.
  RULESET_EMPTY: { when: 'A rule set pins nothing: pins is an empty list.' },
  DUPLICATE_PIN: { when: 'A rule set pins one rule twice; each later pin is reported, whatever the first pin’s problems.' },
  RULESET_TOO_LARGE: { when: 'A rule set pins more than 64 rules; the rules past the 64th are named.' },
  RULE_NOT_VISIBLE: {
    when: 'Given a store to ask, a pinned rule is not one the member can see: the store holds no loadable version of it.',
  },
  VERSION_NOT_FOUND: {
    when: 'Given a store to ask, a pin names a version_id the store does not hold for that rule, or a pin without one names a rule with no running version to take.',
  },
  RULE_NOT_PINNABLE: { when: 'Given a store to ask, a pinned rule is disabled or archived.' },
  // Agents.
  POLICY_OR_RULESET: { when: 'An agent names both a policy and a rule set, or neither: it names exactly one.' },
  INVALID_DECIMAL: { when: 'A spending limit amount is not a non-negative decimal string such as "500" or "99.50".' },
  INVALID_CURRENCY: { when: 'A spending limit currency is not an ISO 4217 code of three uppercase letters.' },
  INVALID_ACTION_PATTERN: {
    when: 'A delegation action is not dot segments of [a-z0-9_-] with an optional final *, or * alone, or is over 128 characters.',
  },
  RESERVED_NAMESPACE: { when: 'A delegation action lies in the reserved tollgate. namespace.' },
  INVALID_DATE_TIME: {
    when: 'A time is not an ISO 8601 date-time with seconds and an offset, such as 2025-07-01T09:00:00Z or 2025-07-01T09:00:00+02:00.',
  },
  // Settings.
  VERSION_REQUIRED: {
    when: 'An approved rule set names no version: the list approves set versions, as rulesets/support.ruleset.json@2.',
  },
  INVALID_TTL: { when: 'approval_ttl_seconds is not an integer from 60 to 2592000 (30 days).' },
  INVALID_WINDOW: { when: 'An observe window does not end after it starts.' },
} as const;

export type DocumentCode = keyof typeof DOCUMENT_CODES;
