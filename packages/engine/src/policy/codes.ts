// The one registry of policy@1 codes: validation errors, warnings, and decision codes. Users script
// against these, so a code is never renamed or reused. docs/policy.md documents each one.

export interface CodeEntry {
  kind: 'error' | 'warning' | 'decision' | 'input' | 'template';
  when: string;
}

export const POLICY_CODES = {
  // Reading the text (the CLI and editors; exit 2 where fatal).
  NOT_JSON: { kind: 'input', when: 'The text is not JSON; the message gives the line and column.' },
  TOO_LARGE: {
    kind: 'input',
    when: 'The file or text is larger than the limit (4 MiB for a document, 8 KiB for example arguments); it is refused unread.',
  },
  TOO_DEEP: { kind: 'input', when: 'Arrays and objects nest deeper than 64 levels.' },
  UNREADABLE: { kind: 'input', when: 'The file cannot be read (missing, a directory, no permission).' },
  DUPLICATE_MEMBER: {
    kind: 'error',
    when: 'An object names the same member twice; JSON readers disagree on which counts, so the document cannot be stated exactly.',
  },
  INEXACT_NUMBER: {
    kind: 'error',
    when: 'A number is not a safe integer written as plain digits (a fraction, an exponent, or beyond 2^53-1), so it cannot be read exactly.',
  },
  // Structure.
  INVALID_TYPE: { kind: 'error', when: 'A value has the wrong JSON type (the message says which is expected).' },
  MISSING_MEMBER: {
    kind: 'error',
    when: "A required member is absent: schema, default, rules; a rule's id, actions, effect; a condition's path; an amount's currency.",
  },
  UNKNOWN_MEMBER: { kind: 'error', when: 'A member not defined by policy@1, at any level.' },
  INVALID_VALUE: { kind: 'error', when: 'A value outside its allowed set: an effect, a default, "for", an empty or overlong description.' },
  EMPTY_LIST: {
    kind: 'error',
    when: 'A list that must hold at least one item is empty (actions, tools, when, in, starts_with, roles, users).',
  },
  LIST_TOO_LONG: {
    kind: 'error',
    when: 'A list holds more items than allowed (rules 1000, actions 64, tools 64, when 32, in 256, starts_with 64, roles 3, users 32).',
  },
  DUPLICATE_VALUE: { kind: 'error', when: 'A list names the same value twice.' },
  UNSUPPORTED_SCHEMA: { kind: 'error', when: 'schema is not "tollgate/policy@1" (or its synonym "kblock.cloud/policy@1").' },
  PERMISSIVE_DEFAULT: { kind: 'error', when: 'default is "allow"; anything allowed must be allowed by a rule.' },
  // Rules.
  INVALID_RULE_ID: { kind: 'error', when: 'A rule id is not 1-64 lowercase letters, digits and -.' },
  DUPLICATE_RULE_ID: { kind: 'error', when: 'Two rules share an id; the second is reported.' },
  INVALID_ACTION_PATTERN: {
    kind: 'error',
    when: 'An actions entry is not dot segments of [a-z0-9_-] with an optional final *, or * alone, or is over 128 characters.',
  },
  RESERVED_NAMESPACE: { kind: 'error', when: 'An actions entry lies in the reserved tollgate. namespace, which no tool action can use.' },
  INVALID_TOOL_NAME: { kind: 'error', when: "A tools entry (or a tool binding's name) is not 1-128 letters, digits, _, - or ." },
  INVALID_DECIMAL: {
    kind: 'error',
    when: 'A threshold is not a decimal string: no sign (amounts), no exponent, no leading zeros, at most 18 digits before and after the point.',
  },
  INVALID_CURRENCY: { kind: 'error', when: 'A currency is not an ISO 4217 code of three uppercase letters.' },
  CONTRADICTORY_BOUNDS: { kind: 'error', when: 'The bounds of an amount or argument condition admit no value (gt "10" with lt "5").' },
  APPROVERS_REQUIRED: { kind: 'error', when: 'A require_approval rule has no approvers, or approvers lists neither roles nor users.' },
  APPROVERS_NOT_ALLOWED: { kind: 'error', when: 'approvers is set on a rule whose effect is not require_approval.' },
  APPROVER_ROLE_NOT_CAPABLE: {
    kind: 'error',
    when: "approvers.roles lists a role that cannot approve (developer, viewer), or a listed user's role cannot approve.",
  },
  UNKNOWN_APPROVER: {
    kind: 'error',
    when: "approvers.users lists an ID that is not a member (checked against the members given, and on the server against the workspace's own).",
  },
  INVALID_USER_ID: { kind: 'error', when: 'An approvers.users entry is not a lowercase UUID.' },
  TTL_NOT_ALLOWED: { kind: 'error', when: 'approval_ttl_seconds is set on a rule whose effect is not require_approval.' },
  INVALID_TTL: { kind: 'error', when: 'approval_ttl_seconds is not an integer from 60 to 2592000 (30 days).' },
  GUARD_NOT_ALLOWED: { kind: 'error', when: 'guard is set on a rule whose effect is not require_approval.' },
  // Argument conditions.
  INVALID_POINTER: {
    kind: 'error',
    when: 'A path is not an RFC 6901 pointer into the arguments (it must start with /, escape ~ as ~0 and / as ~1, and be at most 512 characters).',
  },
  FOR_WITHOUT_WILDCARD: { kind: 'error', when: '"for" is set on a condition whose path has no * token.' },
  WILDCARD_WITHOUT_FOR: { kind: 'error', when: 'A condition\'s path has a * token but no "for": "all" or "any".' },
  MISSING_OPERATOR: { kind: 'error', when: 'A condition has no operator family (eq, in, starts_with, gt/gte/lt/lte).' },
  MULTIPLE_OPERATORS: { kind: 'error', when: 'A condition mixes operator families (eq with in, in with gt, ...).' },
  INVALID_OPERAND: { kind: 'error', when: 'An eq/in operand is not a scalar, or a starts_with prefix is not a non-empty string.' },
  // Warnings (given tools).
  FAIL_CLOSED_ROUTING: {
    kind: 'warning',
    when: 'A rule with an amount condition matches a tool without an amount mapping, or mapped in another currency: its calls are routed fail-closed (deny and require_approval match, allow never does).',
  },
  RULE_MATCHES_NO_TOOL: { kind: 'warning', when: "Given tools, a rule's actions and tools match none of them." },
  // Tool bindings.
  INVALID_ACTION: { kind: 'error', when: "A tool binding's action is not a dot-separated action name, or lies in the reserved namespace." },
  // Decisions.
  DEFAULT: { kind: 'decision', when: "No rule was a candidate; the document's default decided." },
  INVALID_AMOUNT: {
    kind: 'decision',
    when: "The value at the amount pointer is present but not an accepted amount, or the currency pointer does not name exactly the tool's currency; denied before any rule.",
  },
  INVALID_TOOL_CONFIGURATION: {
    kind: 'decision',
    when: 'The tool binding (its name, action or amount mapping) is invalid; every call is denied.',
  },
  TOO_MANY_APPROVERS: { kind: 'decision', when: 'A require_approval decision would need more than 32 eligible approvers; denied.' },
  NO_ELIGIBLE_APPROVER: {
    kind: 'decision',
    when: 'A require_approval decision has no eligible approver (role able to approve, listed, with a signing identity); denied.',
  },
  DELEGATION_EXPIRED: {
    kind: 'decision',
    when: 'A require_approval decision cannot be held: the delegation ends before any approval could be given; denied.',
  },
  // Policy tests.
  ARGUMENTS_REQUIRED: {
    kind: 'decision',
    when: 'An example or recorded call has no arguments but its decision depends on them; reported as not evaluable instead of guessed.',
  },
  // Templates (createFromTemplate; the CLI exits 1).
  UNKNOWN_TEMPLATE: { kind: 'template', when: 'No template has the given name; the message lists the templates.' },
  UNKNOWN_PARAMETER: { kind: 'template', when: 'A parameter the template does not have; the message lists its parameters.' },
  INVALID_PARAMETER: {
    kind: 'template',
    when: 'A parameter value is not of its type (currency, amount up to 10^15, integer 60-2592000, action patterns), or its patterns overlap actions another part of the template decides.',
  },
  PARAMETER_ORDER: { kind: 'template', when: 'Of two amount limits, the lower is not strictly below the upper.' },
} as const satisfies Record<string, CodeEntry>;

export type PolicyCode = keyof typeof POLICY_CODES;
