// Part of the one code registry (index.ts). Codes of the catalogue, the rule set, agent and settings validators, and the store (docs/documents.md, docs/store.md).
// Users script against these codes: a code is never reused; a rename is listed in docs/documents.md.
import type { CodeEntry } from './entry.ts';

export const DOCUMENT_ONLY_CODES = {
  EXAMPLE_FAILED: {
    severity: 'error',
    meaning: "An example of a policy's suite decides otherwise than it expects.",
    in: {
      document:
        "An example of the running policy's suite decides otherwise than it expects: a problem of the policy in the documents list, and in `tollgate verify` (exit 1).",
    },
  },
  EXAMPLE_NOT_EVALUABLE: {
    severity: 'error',
    meaning: "An example's decision depends on arguments the example does not give.",
    in: {
      document:
        "An example of the running policy's suite cannot be decided without arguments it does not give: a problem in the documents list and in `tollgate verify` (exit 1).",
    },
  },
  UNKNOWN_UPSTREAM: {
    severity: 'error',
    meaning: 'A catalogue tool’s upstream.server names no server of the upstreams document (mcp/servers.yaml).',
    in: {
      catalogue: 'A tool’s upstream.server names no server of mcp/servers.yaml (checked where both are known: an edit through the API).',
    },
  },
  INVALID_ENV_NAME: {
    severity: 'error',
    meaning: 'The upstreams document names an environment variable by something that is not a name: values never go in the document.',
    in: {
      document:
        'An upstream’s env entry or header value in mcp/servers.yaml is not an environment variable’s name (letters, digits and _); the document names variables, never their values.',
    },
  },
  DUPLICATE_TOOL: {
    severity: 'error',
    meaning: 'Two tools share a name; the second is reported.',
    in: {
      catalogue: 'Two tools share a name; the second is reported.',
    },
  },
  UNKNOWN_TOOL: {
    severity: 'error',
    meaning: 'after, not_after or a check’s from names a tool the catalogue does not hold.',
    in: {
      catalogue: 'after, not_after or a check’s from names a tool the catalogue does not hold.',
    },
  },
  CONTRADICTORY_ORDER: {
    severity: 'error',
    meaning: 'A tool is to run after itself, or names one tool in both after and not_after: it could never run.',
    in: {
      catalogue: 'A tool is to run after itself, or names one tool in both after and not_after: it could never run.',
    },
  },
  DOCUMENT_KIND_UNKNOWN: {
    severity: 'error',
    meaning: 'The id names no kind of document: it matches none of the path patterns (catalogue.yaml, sheets/*.rules.yaml, ...).',
    in: {
      document: 'The id names no kind of document: it matches none of the path patterns (catalogue.yaml, sheets/*.rules.yaml, ...).',
    },
  },
  WRONG_DOCUMENT_KIND: {
    severity: 'error',
    meaning:
      'A member names a document id of another kind: a pin that is not a policy, sheet or Colang id; an agent’s catalogue, rulebook, policy or ruleset; an approved rule set that is not a rule set id.',
    in: {
      document:
        'A member names a document id of another kind: a pin that is not a policy, sheet or Colang id; an agent’s catalogue, rulebook, policy or ruleset; an approved rule set that is not a rule set id.',
    },
  },
  REFERENCE_NOT_FOUND: {
    severity: 'error',
    meaning: 'Given a store to ask, a named document, or a pinned version of it, does not exist.',
    in: {
      document: 'Given a store to ask, a named document, or a pinned version of it, does not exist.',
    },
  },
  RULESET_EMPTY: {
    severity: 'error',
    meaning: 'A rule set pins nothing: pins is an empty list.',
    in: {
      document: 'A rule set pins nothing: pins is an empty list.',
    },
  },
  DUPLICATE_PIN: {
    severity: 'error',
    meaning: 'A rule set pins one rule twice; each later pin is reported, whatever the first pin’s problems.',
    in: {
      document: 'A rule set pins one rule twice; each later pin is reported, whatever the first pin’s problems.',
    },
  },
  RULESET_TOO_LARGE: {
    severity: 'error',
    meaning: 'A rule set pins more than 64 rules; the rules past the 64th are named.',
    in: {
      document: 'A rule set pins more than 64 rules; the rules past the 64th are named.',
    },
  },
  RULE_NOT_VISIBLE: {
    severity: 'error',
    meaning: 'Given a store to ask, a pinned rule is not one the member can see: the store holds no loadable version of it.',
    in: {
      document: 'Given a store to ask, a pinned rule is not one the member can see: the store holds no loadable version of it.',
    },
  },
  VERSION_NOT_FOUND: {
    severity: 'error',
    meaning:
      'Given a store to ask, a pin names a version_id the store does not hold for that rule, or a pin without one names a rule with no running version to take.',
    in: {
      document:
        'Given a store to ask, a pin names a version_id the store does not hold for that rule, or a pin without one names a rule with no running version to take.',
    },
  },
  RULE_NOT_PINNABLE: {
    severity: 'error',
    meaning: 'Given a store to ask, a pinned rule is disabled or archived.',
    in: {
      document: 'Given a store to ask, a pinned rule is disabled or archived.',
    },
  },
  POLICY_OR_RULESET: {
    severity: 'error',
    meaning: 'An agent names both a policy and a rule set, or neither: it names exactly one.',
    in: {
      document: 'An agent names both a policy and a rule set, or neither: it names exactly one.',
    },
  },
  INVALID_DATE_TIME: {
    severity: 'error',
    meaning: 'A time is not an ISO 8601 date-time with seconds and an offset, such as 2025-07-01T09:00:00Z or 2025-07-01T09:00:00+02:00.',
    in: {
      document:
        'A time is not an ISO 8601 date-time with seconds and an offset, such as 2025-07-01T09:00:00Z or 2025-07-01T09:00:00+02:00.',
    },
  },
  VERSION_REQUIRED: {
    severity: 'error',
    meaning: 'An approved rule set names no version: the list approves set versions, as rulesets/support.ruleset.json@2.',
    in: {
      document: 'An approved rule set names no version: the list approves set versions, as rulesets/support.ruleset.json@2.',
    },
  },
  INVALID_WINDOW: {
    severity: 'error',
    meaning: 'An observe window does not end after it starts.',
    in: {
      document: 'An observe window does not end after it starts.',
    },
  },
  LINK_OUTSIDE: {
    severity: 'error',
    meaning: 'A document path is a link out of the state folder; it is not followed.',
    in: {
      store: 'A document path is a link out of the state folder; it is not followed.',
    },
  },
  MISSING_WORKING_COPY: {
    severity: 'error',
    meaning: 'A document has versions but its working copy is gone; the running version still runs.',
    in: {
      store: 'A document has versions but its working copy is gone; the running version still runs.',
    },
  },
  DAMAGED_INDEX: {
    severity: 'error',
    meaning: "A document's version index cannot be read; repair rebuilds it from the version files.",
    in: {
      store: "A document's version index cannot be read; repair rebuilds it from the version files.",
    },
  },
  INDEX_REBUILT: {
    severity: 'warning',
    meaning: "A document's version index was rebuilt from its version files.",
    in: {
      store: "A document's version index was rebuilt from its version files.",
    },
  },
  DAMAGED_VERSION: {
    severity: 'error',
    meaning: 'A stored version file is damaged; it is refused, never replaced: restore it from a backup.',
    in: {
      store: 'A stored version file is damaged; it is refused, never replaced: restore it from a backup.',
    },
  },
  ORPHAN_VERSION: {
    severity: 'warning',
    meaning: 'A version file no index names, left by an interrupted save; repair moves it aside.',
    in: {
      store: 'A version file no index names, left by an interrupted save; repair moves it aside.',
    },
  },
  MISSING_INDEX: {
    severity: 'error',
    meaning: 'A document has version files but no version index; the next start or repair rebuilds it from them.',
    in: {
      store:
        'A document has version files but no version index (`tollgate store check`); the next start or repair rebuilds it from the version files.',
    },
  },
  STALE_PENDING: {
    severity: 'warning',
    meaning: 'A write a crash cut short left its marker; the next start or repair finishes it, or takes a hand edit in.',
    in: {
      store:
        'A write a crash cut short between the index and the working copy left its marker (`tollgate store check`); the next start or repair finishes it when the working copy holds the text the marker names, else takes the working copy in as a hand edit.',
    },
  },
  TEMP_FILE: {
    severity: 'warning',
    meaning: 'Half of a write a crash left (a temp file that never became a file); removed at the next start.',
    in: {
      store:
        'Half of a write a crash left (a temp file that never became a file; `tollgate store check`); removed at the next start or repair.',
    },
  },
  WORKING_COPY_DIFFERS: {
    severity: 'warning',
    meaning: 'A working copy edited by hand is not yet a version; it is taken in at the next start, by the watcher or by repair.',
    in: {
      store:
        'A working copy edited by hand is not yet a version (`tollgate store check`, which says when it does not load); the next start, the watcher or `tollgate store repair` takes it in: as the running version when it loads, else as a rejected version.',
    },
  },
  WORKING_COPY_REJECTED: {
    severity: 'warning',
    meaning: 'A working copy does not load; it is kept as a rejected version and the version before keeps running.',
    in: {
      store:
        'A working copy edited by hand does not load; it is kept as a rejected version and the version before keeps running (`tollgate store check`): mend the file.',
    },
  },
  RUNNING_NOT_LOADABLE: {
    severity: 'error',
    meaning: 'The running version of a document does not load, so what needs it fails.',
    in: {
      store:
        'The running version of a document does not load, so what needs it fails (`tollgate store check`): run a version that loads, or mend the working copy.',
    },
  },
  EDIT_CONFLICT: {
    severity: 'error',
    meaning: 'The document changed since the version the edit was based on; nothing was stored.',
    in: {
      store: 'The document changed since the version the edit was based on (basedOn); read it, merge and submit again. Nothing was stored.',
    },
  },
  HELD_FOR_REVIEW: {
    severity: 'info',
    meaning: 'The edit is stored as a candidate; the running version keeps running.',
    in: {
      store:
        'The edit is stored as a version that does not run (a model’s edit, a rule set’s draft, a widening edit under four eyes); an owner or admin activates it, another member than its author for a widening one under four eyes.',
    },
  },
  GATEWAYS_NOT_UPGRADED: {
    seed: 'policy-documents',
    severity: 'info',
    meaning: 'A live gateway decides a lower policy language revision than the document’s, so the document cannot run yet.',
    in: {
      store:
        'A policy edit of language revision 2 or 3 is stored as a version that does not run while a live gateway decides a lower revision; activate it once every gateway does (docs/deploy.md).',
    },
  },
  PINNED_AT_RUNNING: {
    severity: 'info',
    meaning: 'Pins without a version were pinned at their rules’ running versions.',
    in: { store: 'A rule set’s pins without a version were pinned at their rules’ running versions as the version was stored.' },
  },
} as const satisfies Record<string, CodeEntry>;
