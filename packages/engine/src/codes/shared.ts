// Part of the one code registry (index.ts). Codes more than one reader answers (reading the text, structure): each means the same everywhere, with what it covers in each.
// Users script against these codes: a code is never reused; a rename is listed in docs/documents.md.
import type { CodeEntry } from './entry.ts';

export const SHARED_CODES = {
  NOT_JSON: {
    severity: 'error',
    meaning: 'The text is not JSON; the message gives the line and column.',
    policyKind: 'input',
    in: {
      policy: 'The text is not JSON; the message gives the line and column.',
      catalogue: 'The text is not JSON; the range gives the line and column.',
      document: 'A rule set is not JSON; the range gives the line and column.',
    },
  },
  TOO_LARGE: {
    severity: 'error',
    meaning: 'The file or text is larger than the limit (4 MiB for a document, 8 KiB for example arguments); it is refused unread.',
    policyKind: 'input',
    in: {
      policy: 'The file or text is larger than the limit (4 MiB for a document, 8 KiB for example arguments); it is refused unread.',
      catalogue: 'The text is longer than 4 MiB.',
      document: 'The text is longer than 4 MiB; it is refused unread.',
      cli: 'An input file is larger than 4 MiB; it is refused unread (exit 2).',
    },
  },
  TOO_DEEP: {
    severity: 'error',
    meaning: 'Arrays and objects nest deeper than 64 levels.',
    policyKind: 'input',
    in: {
      policy: 'Arrays and objects nest deeper than 64 levels.',
      catalogue: 'JSON arrays and objects nest deeper than 64 levels.',
      document: 'JSON arrays and objects nest deeper than 64 levels.',
    },
  },
  DUPLICATE_MEMBER: {
    severity: 'error',
    meaning: 'An object names the same member twice; JSON readers disagree on which counts, so the document cannot be stated exactly.',
    policyKind: 'error',
    in: {
      policy: 'An object names the same member twice; JSON readers disagree on which counts, so the document cannot be stated exactly.',
      catalogue: 'A JSON object names a member twice.',
      document: 'A JSON object names a member twice.',
    },
  },
  INEXACT_NUMBER: {
    severity: 'error',
    meaning:
      'A number is not a safe integer written as plain digits (a fraction, an exponent, or beyond 2^53-1), so it cannot be read exactly.',
    policyKind: 'error',
    in: {
      policy:
        'A number is not a safe integer written as plain digits (a fraction, an exponent, or beyond 2^53-1), so it cannot be read exactly.',
      catalogue: 'A number cannot be read exactly (an exponent, a float in JSON, beyond 2^53-1).',
      document: 'A number cannot be read exactly (an exponent, a fraction in JSON, beyond 2^53-1).',
    },
  },
  INVALID_TYPE: {
    severity: 'error',
    meaning: 'A value has the wrong JSON type (the message says which is expected).',
    policyKind: 'error',
    in: {
      policy: 'A value has the wrong JSON type (the message says which is expected).',
      catalogue: 'A value has the wrong type: the document or a tool is not a mapping, tools or an order rule is not a list.',
      document: 'A value has the wrong type: the document or an entry is not a mapping, a list is not a list, a flag is not true or false.',
    },
  },
  MISSING_MEMBER: {
    severity: 'error',
    meaning: "A required member is absent: schema, default, rules; a rule's id, actions, effect; a condition's path; an amount's currency.",
    policyKind: 'error',
    in: {
      policy:
        "A required member is absent: schema, default, rules; a rule's id, actions, effect; a condition's path; an amount's currency.",
      catalogue: 'tools, or a tool’s name, action or kind, or an amount’s pointer or currency, is absent.',
      document:
        'A required member is absent: a rule set’s name, status or pins; a pin’s document; an agent’s catalogue or delegation; delegation actions; a spending limit’s amount or currency; an observe window’s members; approved_rulesets_only.',
    },
  },
  UNKNOWN_MEMBER: {
    seed: 'policy-documents',
    severity: 'error',
    meaning: 'A member not defined by policy@1, at any level.',
    policyKind: 'error',
    in: {
      policy: 'A member not defined by policy@1, at any level.',
      catalogue: 'A member the catalogue format does not define, at the top or in a tool or amount.',
      document: 'A member the format does not define, at any level.',
    },
  },
  INVALID_VALUE: {
    severity: 'error',
    meaning: 'A value outside its allowed set: an effect, a default, "for", an empty or overlong description.',
    policyKind: 'error',
    in: {
      policy: 'A value outside its allowed set: an effect, a default, "for", an empty or overlong description.',
      catalogue:
        'kind is not read or write; at_most is not a positive integer; description or confirmation is empty or over 500 characters; requires_confirmation is not a boolean, or is false beside confirmation words.',
      document:
        'A value outside its allowed set: a status, disclosure or relax; an empty or overlong name, description or tag; a sequence that is not a positive integer; a window name; a rule set replacing itself.',
    },
  },
  EMPTY_LIST: {
    severity: 'error',
    meaning: 'A list that must hold at least one item is empty (actions, tools, when, in, starts_with, roles, users).',
    policyKind: 'error',
    in: {
      policy: 'A list that must hold at least one item is empty (actions, tools, when, in, starts_with, roles, users).',
      document: 'delegation actions is an empty list.',
    },
  },
  LIST_TOO_LONG: {
    severity: 'error',
    meaning: 'A list holds more items than allowed (rules 1000, actions 64, tools 64, when 32, in 256, starts_with 64, roles 3, users 32).',
    policyKind: 'error',
    in: {
      policy:
        'A list holds more items than allowed (rules 1000, actions 64, tools 64, when 32, in 256, starts_with 64, roles 3, users 32).',
      document:
        'A list holds more items than allowed (pins 100, tags 32, delegation actions 64, observe windows 32, approved rule sets 1000, upstream servers 64, a server’s args, env and headers 64 each).',
    },
  },
  DUPLICATE_VALUE: {
    severity: 'error',
    meaning: 'A list names the same value twice.',
    policyKind: 'error',
    in: {
      policy: 'A list names the same value twice.',
      catalogue: 'after or not_after names a tool twice.',
      document: 'A list names the same value twice (a tag, an action pattern, an approved rule set, an observe window name).',
    },
  },
  INVALID_ACTION_PATTERN: {
    severity: 'error',
    meaning: 'An actions entry is not dot segments of [a-z0-9_-] with an optional final *, or * alone, or is over 128 characters.',
    policyKind: 'error',
    in: {
      policy: 'An actions entry is not dot segments of [a-z0-9_-] with an optional final *, or * alone, or is over 128 characters.',
      document: 'A delegation action is not dot segments of [a-z0-9_-] with an optional final *, or * alone, or is over 128 characters.',
    },
  },
  RESERVED_NAMESPACE: {
    severity: 'error',
    meaning: 'An actions entry lies in the reserved tollgate.',
    policyKind: 'error',
    in: {
      policy: 'An actions entry lies in the reserved tollgate. namespace, which no tool action can use.',
      document: 'A delegation action lies in the reserved tollgate. namespace.',
    },
  },
  INVALID_TOOL_NAME: {
    severity: 'error',
    meaning: "A tools entry (or a tool binding's name) is not 1-128 letters, digits, _, - or .",
    policyKind: 'error',
    in: {
      policy: "A tools entry (or a tool binding's name) is not 1-128 letters, digits, _, - or .",
      catalogue: 'A tool name, or a name in after/not_after, is not 1-128 letters, digits, _, - or .',
    },
  },
  INVALID_DECIMAL: {
    severity: 'error',
    meaning:
      'A threshold is not a decimal string: no sign (amounts), no exponent, no leading zeros, at most 18 digits before and after the point.',
    policyKind: 'error',
    in: {
      policy:
        'A threshold is not a decimal string: no sign (amounts), no exponent, no leading zeros, at most 18 digits before and after the point.',
      document: 'A spending limit amount is not a non-negative decimal string such as "500" or "99.50".',
    },
  },
  INVALID_CURRENCY: {
    severity: 'error',
    meaning: 'A currency is not an ISO 4217 code of three uppercase letters.',
    policyKind: 'error',
    in: {
      policy: 'A currency is not an ISO 4217 code of three uppercase letters.',
      catalogue: 'An amount currency is not three uppercase letters.',
      document: 'A spending limit currency is not an ISO 4217 code of three uppercase letters.',
    },
  },
  INVALID_TTL: {
    severity: 'error',
    meaning: 'approval_ttl_seconds is not an integer from 60 to 2592000 (30 days).',
    policyKind: 'error',
    in: {
      policy: 'approval_ttl_seconds is not an integer from 60 to 2592000 (30 days).',
      document: 'approval_ttl_seconds is not an integer from 60 to 2592000 (30 days).',
    },
  },
  INVALID_POINTER: {
    severity: 'error',
    meaning:
      'A path is not an RFC 6901 pointer into the arguments (it must start with /, escape ~ as ~0 and / as ~1, and be at most 512 characters).',
    policyKind: 'error',
    in: {
      policy:
        'A path is not an RFC 6901 pointer into the arguments (it must start with /, escape ~ as ~0 and / as ~1, and be at most 512 characters).',
      catalogue: 'An amount pointer or currency pointer is not a JSON Pointer into the arguments such as /amount.',
    },
  },
  INVALID_ACTION: {
    severity: 'error',
    meaning: "A tool binding's action is not a dot-separated action name, or lies in the reserved namespace.",
    policyKind: 'error',
    in: {
      policy: "A tool binding's action is not a dot-separated action name, or lies in the reserved namespace.",
      catalogue: 'An action is not dot-separated segments of a-z, 0-9, _ and -, or lies in the reserved tollgate. namespace.',
    },
  },
  INVALID_AMOUNT: {
    seed: 'policy-documents',
    severity: 'error',
    meaning:
      "The value at the amount pointer is present but not an accepted amount, or the currency pointer does not name exactly the tool's currency; denied before any rule.",
    policyKind: 'decision',
    in: {
      policy:
        "The value at the amount pointer is present but not an accepted amount, or the currency pointer does not name exactly the tool's currency; denied before any rule.",
      gate: 'The amount (or its currency) is present but not an accepted value.',
    },
  },
  INVALID_TOOL_CONFIGURATION: {
    seed: 'policy-documents',
    severity: 'error',
    meaning: 'The tool binding (its name, action or amount mapping) is invalid; every call is denied.',
    policyKind: 'decision',
    in: {
      policy: 'The tool binding (its name, action or amount mapping) is invalid; every call is denied.',
      gate: "The tool's amount mapping is itself invalid.",
    },
  },
  DELEGATION_EXPIRED: {
    severity: 'error',
    meaning: 'A require_approval decision cannot be held: the delegation ends before any approval could be given; denied.',
    policyKind: 'decision',
    in: {
      policy: 'A require_approval decision cannot be held: the delegation ends before any approval could be given; denied.',
      gate: "The delegation's valid_until has passed (or ends before anyone could approve).",
    },
  },
  NOT_YAML: {
    severity: 'error',
    meaning: 'The text is not YAML, or holds a second document or a key twice; the range gives the line.',
    in: {
      catalogue: 'The text is not YAML, or holds a second document or a key twice; the range gives the line.',
      document: 'An agent or settings file is not YAML, holds a second document, or names a key twice; the range gives the line.',
    },
  },
  UNSUPPORTED_YAML: {
    severity: 'error',
    meaning: 'A YAML alias; write the value out.',
    in: {
      catalogue: 'A YAML alias; write the value out.',
      document: 'A YAML alias; write the value out.',
    },
  },
  CHECK_INVALID: {
    severity: 'error',
    meaning:
      'A check is not a mapping, has a member other than `field` and one comparison, or its `field` is missing or not an argument name (segments of letters, digits, _ and -, joined by dots).',
    in: {
      catalogue:
        'A check is not a mapping, has a member other than `field` and one comparison, or its `field` is missing or not an argument name (segments of letters, digits, _ and -, joined by dots). Also a `checks` value that is not a list.',
      check:
        'A check is not a mapping, has a member other than `field` and one comparison, or its `field` is missing or not an argument name (segments of letters, digits, _ and -, joined by dots). Also a `checks` value that is not a list.',
    },
  },
  CHECK_COMPARISON: {
    severity: 'error',
    meaning: 'A check has no comparison, or more than one; it needs exactly one of is, is_not, in, not_in, over, under, at_least, at_most.',
    in: {
      catalogue:
        'A check has no comparison, or more than one; it needs exactly one of is, is_not, in, not_in, over, under, at_least, at_most.',
      check: 'A check has no comparison, or more than one; it needs exactly one of is, is_not, in, not_in, over, under, at_least, at_most.',
    },
  },
  CHECK_OPERAND: {
    severity: 'error',
    meaning:
      'A comparison cannot be stated exactly: over/under/at_least/at_most given something that is not a number or {from}; in/not_in given something that is not a non-empty list of distinct scalars or {from}; is/is_not given a list; a number that is not exact; a `from` that is not `tool.field`.',
    in: {
      catalogue:
        'A comparison cannot be stated exactly: over/under/at_least/at_most given something that is not a number or {from}; in/not_in given something that is not a non-empty list of distinct scalars or {from}; is/is_not given a list; a number that is not exact; a `from` that is not `tool.field`.',
      check:
        'A comparison cannot be stated exactly: over/under/at_least/at_most given something that is not a number or {from}; in/not_in given something that is not a non-empty list of distinct scalars or {from}; is/is_not given a list; a number that is not exact; a `from` that is not `tool.field`.',
    },
  },
  TOOL_UNKNOWN: {
    severity: 'error',
    meaning: 'The call names a tool the catalogue does not hold; rule is null.',
    in: {
      'tool-check': 'The call names a tool the catalogue does not hold; rule is null.',
      gate: 'The catalogue holds no tool of that name.',
    },
  },
} as const satisfies Record<string, CodeEntry>;
