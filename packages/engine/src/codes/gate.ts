// Part of the one code registry (index.ts). Codes the gate decides with: its own and the rulebook's refusals (docs/catalogue.md).
// Users script against these codes: a code is never reused; a rename is listed in docs/documents.md.
import type { CodeEntry } from './entry.ts';

export const GATE_ONLY_CODES = {
  LANGUAGE_REVISION_UNSUPPORTED: {
    severity: 'error',
    meaning:
      'A policy the agent runs is of a language revision above the one this gateway decides (its --language-revision), so the gateway denies every call of the agent (docs/deploy.md).',
    in: {
      gate: 'A policy the agent runs is of a language revision above the one this gateway decides (its --language-revision), so the gateway denies every call of the agent (docs/deploy.md).',
    },
  },
  NEVER: {
    severity: 'error',
    meaning: 'The rulebook refuses the tool outright (a sheet’s never: true).',
    in: {
      'tool-check': 'The rulebook refuses the tool outright (a sheet’s never: true).',
    },
  },
  REQUIREMENT_UNMET: {
    severity: 'error',
    meaning:
      'The rulebook allows the tool only where its guard holds, and for this call it does not, or cannot be read (a missing argument makes a when condition hold, so the requirement applies).',
    in: {
      'tool-check':
        'The rulebook allows the tool only where its guard holds, and for this call it does not, or cannot be read (a missing argument makes a when condition hold, so the requirement applies). The reason names the unmet contexts.',
    },
  },
  ORDER_AFTER: {
    severity: 'error',
    meaning: 'The tool runs only after the tools in after, and one of them has not run earlier in the session.',
    in: {
      'tool-check': 'The tool runs only after the tools in after, and one of them has not run earlier in the session.',
    },
  },
  ORDER_NOT_AFTER: {
    severity: 'error',
    meaning: 'The tool never runs after the tools in not_after, and one of them ran earlier in the session.',
    in: {
      'tool-check': 'The tool never runs after the tools in not_after, and one of them ran earlier in the session.',
    },
  },
  AT_MOST_EXCEEDED: {
    severity: 'error',
    meaning: 'The tool has already run at_most times in the session.',
    in: {
      'tool-check': 'The tool has already run at_most times in the session.',
    },
  },
  CHECK_FAILED: {
    severity: 'error',
    meaning: 'A check does not hold for the call.',
    in: {
      'tool-check': 'A check does not hold for the call.',
    },
  },
  CHECK_UNREADABLE: {
    severity: 'error',
    meaning:
      'A check cannot be read: its argument is missing or of another type, or its from tool has not run in the session, or its result lacks the field.',
    in: {
      'tool-check':
        'A check cannot be read: its argument is missing or of another type, or its from tool has not run in the session, or its result lacks the field.',
    },
  },
  TOOL_NOT_AUTHORIZED: {
    severity: 'error',
    meaning:
      "The tool's binding (its action and amount mapping) is not the one an owner or admin authorized: it is new or changed since, and an owner or admin must authorize the tool before its calls run.",
    in: {
      gate: "The tool's binding (its action and amount mapping) is not the one an owner or admin authorized: it is new or changed since, and an owner or admin must authorize the tool before its calls run.",
    },
  },
  TOOL_DEFINITION_CHANGED: {
    severity: 'error',
    meaning:
      "The call came through the MCP gateway and the upstream's definition of the tool (its description or schemas) is not the one an owner or admin authorized: it is new or changed since, so the tool is withheld and its calls denied until an owner or admin reviews the difference and authorizes it.",
    in: {
      gate: "The call came through the MCP gateway and the upstream's definition of the tool (its description or schemas) is not the one an owner or admin authorized: it is new or changed since, so the tool is withheld and its calls denied until an owner or admin reviews the difference and authorizes it.",
    },
  },
  DELEGATION_ACTION: {
    severity: 'error',
    meaning: "The tool's action is outside the delegation's action patterns.",
    in: {
      gate: "The tool's action is outside the delegation's action patterns.",
    },
  },
  DELEGATION_SPENDING_LIMIT: {
    severity: 'error',
    meaning:
      'The delegation has a spending limit and the call is over it, has no amount, is in another currency, or its tool has no amount mapping.',
    in: {
      gate: 'The delegation has a spending limit and the call is over it, has no amount, is in another currency, or its tool has no amount mapping.',
    },
  },
  CONFIRMATION_REQUIRED: {
    severity: 'error',
    meaning: 'A person must confirm the call (send it again with confirmed: true).',
    in: {
      gate: 'A person must confirm the call (send it again with confirmed: true).',
    },
  },
  POLICY_MISSING: {
    severity: 'error',
    meaning: 'No policy decides for the agent (its policy or rule set has none that loads).',
    in: {
      gate: 'No policy decides for the agent (its policy or rule set has none that loads).',
    },
  },
  RULESET_ARCHIVED: {
    severity: 'error',
    meaning: "The agent's rule set is archived (the explanation names its replacement, if any).",
    in: {
      gate: "The agent's rule set is archived (the explanation names its replacement, if any).",
    },
  },
  RULESET_NOT_ACTIVE: {
    severity: 'error',
    meaning: "The agent's rule set (or the version it names) is a draft: only test and active sets run.",
    in: {
      gate: "The agent's rule set (or the version it names) is a draft: only test and active sets run.",
    },
  },
  RULESET_DISABLED: {
    severity: 'error',
    meaning: "The agent's rule set is disabled.",
    in: {
      gate: "The agent's rule set is disabled.",
    },
  },
  RULESET_RULE_UNUSABLE: {
    severity: 'error',
    meaning: 'A rule the set pins has since been disabled or archived, so the set runs nothing.',
    in: {
      gate: 'A rule the set pins has since been disabled or archived, so the set runs nothing.',
    },
  },
  RULESET_NOT_APPROVED: {
    severity: 'error',
    meaning: "Settings allow only approved rule sets, and the agent's set (at the version it runs) is not on the approved list.",
    in: {
      gate: "Settings allow only approved rule sets, and the agent's set (at the version it runs) is not on the approved list.",
    },
  },
} as const satisfies Record<string, CodeEntry>;
