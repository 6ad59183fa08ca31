// Part of the one code registry (index.ts). Codes of policy@1 alone: validation, warnings, decisions and template parameters (docs/policy.md).
// Users script against these codes: a code is never reused; a rename is listed in docs/documents.md.
import type { CodeEntry } from './entry.ts';

export const POLICY_ONLY_CODES = {
  UNREADABLE: {
    severity: 'error',
    meaning: 'The file cannot be read (missing, a directory, no permission).',
    policyKind: 'input',
    in: {
      policy: 'The file cannot be read (missing, a directory, no permission).',
      cli: 'A file named cannot be read (missing, not a regular file, not UTF-8, no permission), or `--data` names a path that is not a folder, or (`store`) not a Tollgate data folder (exit 2).',
    },
  },
  UNSUPPORTED_SCHEMA: {
    severity: 'error',
    meaning: 'schema is not "tollgate/policy@1" (or its synonym "kblock.cloud/policy@1").',
    policyKind: 'error',
    in: {
      policy: 'schema is not "tollgate/policy@1" (or its synonym "kblock.cloud/policy@1").',
    },
  },
  PERMISSIVE_DEFAULT: {
    severity: 'error',
    meaning: 'default is "allow"; anything allowed must be allowed by a rule.',
    policyKind: 'error',
    in: {
      policy: 'default is "allow"; anything allowed must be allowed by a rule.',
    },
  },
  INVALID_RULE_ID: {
    severity: 'error',
    meaning: 'A rule id is not 1-64 lowercase letters, digits and -.',
    policyKind: 'error',
    in: {
      policy: 'A rule id is not 1-64 lowercase letters, digits and -.',
    },
  },
  DUPLICATE_RULE_ID: {
    severity: 'error',
    meaning: 'Two rules share an id; the second is reported.',
    policyKind: 'error',
    in: {
      policy: 'Two rules share an id; the second is reported.',
    },
  },
  CONTRADICTORY_BOUNDS: {
    seed: 'policy-documents',
    severity: 'error',
    meaning: 'The bounds of an amount or argument condition admit no value (gt "10" with lt "5").',
    policyKind: 'error',
    in: {
      policy: 'The bounds of an amount or argument condition admit no value (gt "10" with lt "5").',
    },
  },
  APPROVERS_REQUIRED: {
    severity: 'error',
    meaning: 'A require_approval rule has no approvers, or approvers lists neither roles nor users.',
    policyKind: 'error',
    in: {
      policy: 'A require_approval rule has no approvers, or approvers lists neither roles nor users.',
    },
  },
  APPROVERS_NOT_ALLOWED: {
    severity: 'error',
    meaning: 'approvers is set on a rule whose effect is not require_approval.',
    policyKind: 'error',
    in: {
      policy: 'approvers is set on a rule whose effect is not require_approval.',
    },
  },
  APPROVER_ROLE_NOT_CAPABLE: {
    seed: 'policy-documents',
    severity: 'error',
    meaning: "approvers.roles lists a role that cannot approve (developer, viewer), or a listed user's role cannot approve.",
    policyKind: 'error',
    in: {
      policy: "approvers.roles lists a role that cannot approve (developer, viewer), or a listed user's role cannot approve.",
    },
  },
  UNKNOWN_APPROVER: {
    seed: 'policy-documents',
    severity: 'error',
    meaning:
      "approvers.users lists an ID that is not a member (checked against the members given, and on the server against the workspace's own).",
    policyKind: 'error',
    in: {
      policy:
        "approvers.users lists an ID that is not a member (checked against the members given, and on the server against the workspace's own).",
    },
  },
  INVALID_USER_ID: {
    severity: 'error',
    meaning: 'An approvers.users entry is not a lowercase UUID.',
    policyKind: 'error',
    in: {
      policy: 'An approvers.users entry is not a lowercase UUID.',
    },
  },
  INVALID_QUORUM: {
    severity: 'error',
    meaning: 'approvers.quorum is not a whole number from 1 to 32, or is more than the users listed when only users are.',
    policyKind: 'error',
    in: {
      policy: 'approvers.quorum is not a whole number from 1 to 32, or is more than the users listed when only users are.',
    },
  },
  TTL_NOT_ALLOWED: {
    severity: 'error',
    meaning: 'approval_ttl_seconds is set on a rule whose effect is not require_approval.',
    policyKind: 'error',
    in: {
      policy: 'approval_ttl_seconds is set on a rule whose effect is not require_approval.',
    },
  },
  GUARD_NOT_ALLOWED: {
    severity: 'error',
    meaning: 'guard is set on a rule whose effect is not require_approval.',
    policyKind: 'error',
    in: {
      policy: 'guard is set on a rule whose effect is not require_approval.',
    },
  },
  FOR_WITHOUT_WILDCARD: {
    severity: 'error',
    meaning: '"for" is set on a condition whose path has no * token.',
    policyKind: 'error',
    in: {
      policy: '"for" is set on a condition whose path has no * token.',
    },
  },
  WILDCARD_WITHOUT_FOR: {
    severity: 'error',
    meaning: 'A condition\'s path has a * token but no "for": "all" or "any".',
    policyKind: 'error',
    in: {
      policy: 'A condition\'s path has a * token but no "for": "all" or "any".',
    },
  },
  MISSING_OPERATOR: {
    severity: 'error',
    meaning: 'A condition has no operator family (eq, in, starts_with, gt/gte/lt/lte).',
    policyKind: 'error',
    in: {
      policy: 'A condition has no operator family (eq, in, starts_with, gt/gte/lt/lte).',
    },
  },
  MULTIPLE_OPERATORS: {
    severity: 'error',
    meaning: 'A condition mixes operator families (eq with in, in with gt, ...).',
    policyKind: 'error',
    in: {
      policy: 'A condition mixes operator families (eq with in, in with gt, ...).',
    },
  },
  INVALID_OPERAND: {
    severity: 'error',
    meaning: 'An eq/in operand is not a scalar, or a starts_with prefix is not a non-empty string.',
    policyKind: 'error',
    in: {
      policy: 'An eq/in operand is not a scalar, or a starts_with prefix is not a non-empty string.',
    },
  },
  FAIL_CLOSED_ROUTING: {
    seed: 'policy-documents',
    severity: 'warning',
    meaning:
      'A rule with an amount condition matches a tool without an amount mapping, or mapped in another currency: its calls are routed fail-closed (deny and require_approval match, allow never does).',
    policyKind: 'warning',
    in: {
      policy:
        'A rule with an amount condition matches a tool without an amount mapping, or mapped in another currency: its calls are routed fail-closed (deny and require_approval match, allow never does).',
    },
  },
  RULE_MATCHES_NO_TOOL: {
    severity: 'warning',
    meaning: "Given tools, a rule's actions and tools match none of them.",
    policyKind: 'warning',
    in: {
      policy: "Given tools, a rule's actions and tools match none of them.",
    },
  },
  DEFAULT: {
    severity: 'error',
    meaning: "No rule was a candidate; the document's default decided.",
    policyKind: 'decision',
    in: {
      policy: "No rule was a candidate; the document's default decided.",
    },
  },
  TOO_MANY_APPROVERS: {
    seed: 'policy-documents',
    severity: 'error',
    meaning: 'A require_approval decision would need more than 32 eligible approvers; denied.',
    policyKind: 'decision',
    in: {
      policy: 'A require_approval decision would need more than 32 eligible approvers; denied.',
    },
  },
  NOT_ENOUGH_APPROVERS: {
    severity: 'error',
    meaning: "A require_approval decision's quorum is larger than the members eligible to approve it; denied.",
    policyKind: 'decision',
    in: {
      policy: "A require_approval decision's quorum is larger than the members eligible to approve it; denied.",
    },
  },
  NO_ELIGIBLE_APPROVER: {
    severity: 'error',
    meaning:
      'A require_approval decision has no eligible approver (role able to approve, listed, with a signing identity and a key of a person, not only model keys); denied.',
    policyKind: 'decision',
    in: {
      policy:
        'A require_approval decision has no eligible approver (role able to approve, listed, with a signing identity and a key of a person, not only model keys); denied.',
    },
  },
  ARGUMENTS_REQUIRED: {
    seed: 'policy-documents',
    severity: 'error',
    meaning: 'An example or recorded call has no arguments but its decision depends on them; reported as not evaluable instead of guessed.',
    policyKind: 'decision',
    in: {
      policy:
        'An example or recorded call has no arguments but its decision depends on them; reported as not evaluable instead of guessed.',
    },
  },
  UNKNOWN_TEMPLATE: {
    severity: 'error',
    meaning: 'No template has the given name; the message lists the templates.',
    policyKind: 'template',
    in: {
      policy: 'No template has the given name; the message lists the templates.',
      cli: '`policy template show NAME`, `init --template NAME`: no template has the name (exit 1).',
    },
  },
  UNKNOWN_PARAMETER: {
    severity: 'error',
    meaning: 'A parameter the template does not have; the message lists its parameters.',
    policyKind: 'template',
    in: {
      policy: 'A parameter the template does not have; the message lists its parameters.',
    },
  },
  INVALID_PARAMETER: {
    severity: 'error',
    meaning:
      'A parameter value is not of its type (currency, amount up to 10^15, integer 60-2592000, action patterns), or its patterns overlap actions another part of the template decides.',
    policyKind: 'template',
    in: {
      policy:
        'A parameter value is not of its type (currency, amount up to 10^15, integer 60-2592000, action patterns), or its patterns overlap actions another part of the template decides.',
    },
  },
  PARAMETER_ORDER: {
    seed: 'policy-documents',
    severity: 'error',
    meaning: 'Of two amount limits, the lower is not strictly below the upper.',
    policyKind: 'template',
    in: {
      policy: 'Of two amount limits, the lower is not strictly below the upper.',
    },
  },
} as const satisfies Record<string, CodeEntry>;
