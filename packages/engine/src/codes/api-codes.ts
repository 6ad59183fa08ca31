// Every top-level `error.code` the API can answer, with its one HTTP status and a one-line meaning. The
// API's errors are typed by these names (apps/api/src/server/errors.ts), the OpenAPI document's
// `Error.code` is an enum of them, and docs/api.md's code table is rendered from them (`npm run docs`).
// One fault, one code (docs/api.md, "One vocabulary"): a missing resource of any kind is NOT_FOUND (its
// `details.resource` says which), an id that can never name one is INVALID_ID, a path no route answers is
// NO_ROUTE. The problems behind a refusal (Diagnostics) carry their own codes in `details`.

export interface ApiCodeEntry {
  /** The HTTP status the code is always answered with. */
  readonly status: 400 | 401 | 403 | 404 | 409 | 412 | 413 | 415 | 422 | 428 | 500 | 503;
  /** What the code means, in one line. */
  readonly meaning: string;
}

export const API_CODES = {
  // The request itself.
  INVALID_JSON: { status: 400, meaning: 'The body is not UTF-8 JSON; details give the line and column where it stops being JSON.' },
  DUPLICATE_MEMBER: { status: 400, meaning: 'The body repeats a member of an object; details.issues name each repeat.' },
  INVALID_BODY: {
    status: 400,
    meaning: 'The body is missing where required or does not match the schema; details.issues name each fault.',
  },
  INVALID_QUERY: { status: 400, meaning: 'A query parameter is unknown to the route or not valid; the message names it.' },
  WEBHOOK_URL_REFUSED: {
    status: 400,
    meaning:
      'A webhook URL Tollgate will not send to: not https (unless the operator allows http), or its host resolves to a loopback, private, link-local, unspecified or CGNAT address (unless the operator allows them); docs/webhooks.md.',
  },
  INVALID_ID: { status: 400, meaning: 'An id or path parameter that can never name a resource (malformed, out of range).' },
  INVALID_CURSOR: { status: 400, meaning: 'A paging cursor that cannot be read; start again without one.' },
  BAD_REQUEST: { status: 400, meaning: 'The request cannot be read (a fault of the HTTP request itself).' },
  MISSING_KEY: { status: 401, meaning: 'No `Authorization: Bearer KEY` header.' },
  INVALID_KEY: { status: 401, meaning: 'The bearer key is not known.' },
  KEY_REVOKED: { status: 401, meaning: 'The bearer key was revoked (by a person, or with its member); make or ask for a new one.' },
  KEY_EXPIRED: { status: 401, meaning: "The bearer key's expiry has passed (a rotated key's overlap included); use its successor." },
  MEMBER_REMOVED: { status: 401, meaning: 'The key or token belongs to a member who was removed.' },
  TOKEN_INVALID: {
    status: 401,
    meaning: 'The bearer token is not a signed JWT this Tollgate accepts: malformed, tampered, an unknown key, or a refused algorithm.',
  },
  TOKEN_EXPIRED: { status: 401, meaning: "The bearer token's exp has passed, or its nbf is still to come." },
  TOKEN_AUDIENCE: { status: 401, meaning: "The bearer token's aud does not name this Tollgate." },
  TOKEN_ISSUER: { status: 401, meaning: "The bearer token's iss is not a configured issuer (docs/security.md)." },
  TOKEN_IDENTITY: { status: 401, meaning: 'The bearer token names no member or agent this Tollgate knows or may create.' },
  NO_ROUTE: { status: 404, meaning: 'No route answers this method and path.' },
  TOO_LARGE: { status: 413, meaning: 'The body, or what it would store, is over the limit; nothing was read or written.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The body is not application/json.' },
  PRECONDITION_FAILED: {
    status: 412,
    meaning: 'If-Match names a version that is no longer the newest; details.current is the newest. Nothing was written.',
  },
  PRECONDITION_REQUIRED: { status: 428, meaning: 'An edit needs If-Match or based_on, naming the version it was based on.' },
  // Who may do it.
  MEMBER_REQUIRED: { status: 403, meaning: "An agent's key cannot do this; use a member's key." },
  ROLE_REQUIRED: { status: 403, meaning: 'The member lacks the role this needs; the message names the roles.' },
  GRANT_REQUIRED: { status: 403, meaning: 'The key lacks the grant this needs.' },
  PERSON_REQUIRED: {
    status: 403,
    meaning:
      "A model's key (the model grant) cannot do this: a person activates or reverts a version, a model's edit included, decides a held call, and manages members and keys.",
  },
  OWN_ROLE: { status: 403, meaning: 'A member cannot raise (or move sideways) their own role; an owner or admin changes it.' },
  OWNER_REQUIRED: {
    status: 403,
    meaning:
      "Only an owner makes an owner, changes or removes one, makes or rotates an owner's key, or changes the settings' review_widening_edits.",
  },
  SELF_REVIEW_FORBIDDEN: {
    status: 403,
    meaning:
      'Four eyes (review_widening_edits): a version that widens what runs is made to run by another member than its author (docs/security.md, "Four eyes").',
  },
  AGENT_KEY_REQUIRED: { status: 403, meaning: "Only the agent's own key may do this." },
  AGENT_MISMATCH: { status: 403, meaning: 'The agent key belongs to another agent.' },
  NOT_ELIGIBLE: { status: 403, meaning: 'The member is not an eligible approver of this request.' },
  // A decision signed with a key the member holds (docs/approver-keys.md): each fault its own code, nothing counted.
  PROOF_REQUIRED: {
    status: 403,
    meaning: 'The settings require member-held keys (approvals_require_member_keys): sign the decision with a passkey or device key.',
  },
  PROOF_CONTENT_MISMATCH: {
    status: 403,
    meaning: "What was signed is not this decision of this request by this member, or the assertion's challenge is not its digest.",
  },
  PROOF_STALE: {
    status: 403,
    meaning: "The signed content's decided_at is more than 5 minutes from the server's time; ask for a new challenge.",
  },
  PROOF_INVALID: {
    status: 403,
    meaning: 'The signature does not verify with the credential it names, or no such credential of the member exists.',
  },
  PROOF_REPLAYED: { status: 409, meaning: 'This very proof decided the request already; a proof counts once.' },
  CREDENTIAL_NOT_OWN: { status: 403, meaning: 'The credential named belongs to another member: a member signs with their own keys.' },
  CREDENTIAL_REVOKED: { status: 403, meaning: 'The credential was revoked; enroll another.' },
  PASSKEY_USER_NOT_VERIFIED: { status: 403, meaning: "The passkey assertion lacks user verification (the authenticator's UV flag)." },
  PASSKEY_COUNTER_REGRESSED: {
    status: 403,
    meaning: "The passkey's signature counter is not above the one last seen: the assertion is old, or the authenticator was cloned.",
  },
  ENROLLMENT_INVALID: {
    status: 400,
    meaning: 'The passkey registration does not verify: its challenge, origin, relying party or attestation.',
  },
  BINDING_CHANGE_FORBIDDEN: { status: 403, meaning: "The edit changes a tool's binding, which needs an owner or admin." },
  ORIGIN_NOT_ALLOWED: {
    status: 403,
    meaning: 'A request to /mcp reached a loopback address with an Origin naming another host (DNS rebinding); docs/mcp.md.',
  },
  // What is stored.
  NOT_FOUND: {
    status: 404,
    meaning: 'The resource does not exist; details.resource says which kind (document, version, ruleset, agent, ...).',
  },
  CONFLICT: { status: 409, meaning: 'The store changed under the write (based_on is not the newest version); nothing was written.' },
  LAST_OWNER: { status: 409, meaning: 'The change would leave no owner: the last owner cannot be removed or demoted.' },
  MEMBER_EXISTS: { status: 409, meaning: 'A member of that name exists already; change their role instead.' },
  CREDENTIAL_EXISTS: { status: 409, meaning: 'The credential is enrolled already.' },
  TOO_MANY_CREDENTIALS: { status: 409, meaning: 'The member holds the most active credentials allowed (20); revoke one first.' },
  KEY_NOT_ACTIVE: { status: 409, meaning: 'The key is revoked, expired or rotated already, so it cannot be rotated; make a new key.' },
  REJECTED_VERSION: { status: 409, meaning: 'The version did not load, so it can never run.' },
  GATEWAYS_NOT_UPGRADED: {
    status: 409,
    meaning:
      'A live gateway decides a lower policy language revision than the version would make run; details.gateways name them. Nothing was changed: try again once they are upgraded (docs/deploy.md).',
  },
  NOT_RECORDED: {
    status: 409,
    meaning: "The decision is older than the record (docs/audit.md): it has no entry in a writer's chain, so it has no receipt.",
  },
  NOTHING_TO_REVERT: { status: 409, meaning: 'There is no earlier running version to return to.' },
  DAMAGED: { status: 409, meaning: 'The stored version or index is damaged; it is refused, never guessed (docs/store.md).' },
  INVALID_SAVE: { status: 400, meaning: 'The store refuses the write as asked (e.g. a candidate that runs already, a rate out of range).' },
  LOCKED: { status: 503, meaning: 'Another process holds the store; nothing was written; retry after Retry-After seconds.' },
  ISSUER_UNAVAILABLE: {
    status: 503,
    meaning: "A token's issuer did not answer its discovery or key set within the bound; nothing was allowed.",
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    meaning: 'The shared database does not answer: the call is not decided (never allowed) and nothing was written; retry.',
  },
  // What a body holds.
  INVALID_POLICY: { status: 422, meaning: 'The policy document is not valid; details list the problems.' },
  INVALID_TOOL: { status: 422, meaning: 'The tool is not valid; details.problems list the faults.' },
  INVALID_TOOLS: { status: 422, meaning: 'The tools are not valid; details.problems list the faults.' },
  INVALID_MEMBERS: { status: 422, meaning: 'The members are not valid; details.problems list the faults.' },
  INVALID_CATALOGUE: { status: 422, meaning: 'The catalogue does not load; details.problems list the faults.' },
  INVALID_EXAMPLES: { status: 422, meaning: 'The example calls are not valid; details.problems list the faults.' },
  INVALID_PARAMETERS: { status: 422, meaning: "The template's parameters are not valid; details.problems list the faults." },
  rule_sheet_unsupported: { status: 422, meaning: 'The rule sheet was not compiled; details.problems give each problem with its line.' },
  COLANG_UNSUPPORTED: { status: 422, meaning: 'The Colang policy was not compiled; details.problems give each problem with its line.' },
  TOO_MANY_CALLS: { status: 422, meaning: 'More recorded calls match than a simulation replays; narrow the selection.' },
  // The gate and approvals.
  POLICY_NOT_LOADABLE: {
    status: 409,
    meaning: 'A stored policy version a decision map or impact preview reads does not compile; details.problems say why.',
  },
  ANALYSIS_OVER_BUDGET: {
    status: 422,
    meaning:
      'A decision map, diff or impact preview ran past its time or region budget and answers nothing; details.limit says which (time or regions).',
  },
  ANALYSIS_CANCELLED: { status: 409, meaning: 'A decision map, diff or impact preview was cancelled before its end (the caller left).' },
  REVIEW_QUEUE_FULL: {
    status: 503,
    meaning: 'Too many decision maps, diffs and impact previews wait already; nothing was started; retry after Retry-After seconds.',
  },
  NOT_A_POLICY: {
    status: 400,
    meaning: 'A decision map, impact preview, trial or simulation was asked of a stored document that is not a policy.',
  },
  NO_AGENT_POLICY: {
    status: 400,
    meaning: 'A policy version was named for an agent that runs a rule set, not a policy of its own; map the pinned policy instead.',
  },
  AGENT_NOT_LOADABLE: { status: 409, meaning: "The agent's running document or rule set does not load; details.problems say why." },
  ALREADY_DECIDED: { status: 409, meaning: 'The approval was decided already.' },
  ALREADY_VOTED: { status: 409, meaning: 'The member approved or denied this request already; a quorum counts each member once.' },
  APPROVAL_EXPIRED: { status: 409, meaning: 'The approval expired before it was decided.' },
  NOT_APPROVED: { status: 409, meaning: 'The approval request is not approved, so it cannot be claimed.' },
  ALREADY_CLAIMED: { status: 409, meaning: 'The approved request has been claimed already.' },
  ARGUMENTS_MISMATCH: { status: 409, meaning: 'The arguments are not the ones approved.' },
  APPROVAL_UNSIGNED: {
    status: 409,
    meaning:
      "The approval's signature does not verify with its approver's key, or the settings require a member-held key and it has none: the call does not run.",
  },
  BINDING_CHANGED: { status: 409, meaning: "The tool's binding changed since it was read; read the tools again." },
  UPSTREAM_DEFINITION_CHANGED: {
    status: 409,
    meaning:
      "The upstream's definition of the tool is not the one with the digest sent (it changed since it was read, or none was sent); details.upstream_digest is the current one.",
  },
  UPSTREAM_DEFINITION_UNSEEN: {
    status: 409,
    meaning: "No gateway has seen the upstream's definition of the tool yet; refresh the upstreams (POST /v1/upstreams/refresh) first.",
  },
  // Rule sets.
  CATALOGUE_MISSING: { status: 409, meaning: 'The rule set names a catalogue that is not stored.' },
  CATALOGUE_NOT_LOADABLE: { status: 409, meaning: "The rule set's catalogue does not load." },
  RULE_NOT_LOADABLE: { status: 409, meaning: 'A pinned rule does not load.' },
  RULESET_ARCHIVED: { status: 409, meaning: 'The rule set is archived.' },
  RULESET_DISABLED: { status: 409, meaning: 'The rule set is disabled.' },
  RULESET_EXISTS: { status: 409, meaning: 'A rule set with this id exists already.' },
  RULESET_NOT_ARCHIVED: { status: 409, meaning: 'The rule set is not archived.' },
  RULESET_NOT_LOADABLE: { status: 409, meaning: 'The rule set does not load.' },
  RULESET_PINS_DRAFT: { status: 409, meaning: 'A set cannot be active while it pins a draft rule; details.rules name them.' },
  RULESET_PIN_UNRESOLVED: {
    status: 409,
    meaning: 'The version pins rules without a version, so it runs nothing; update the pins to latest first.',
  },
  RULESET_REVERT_ACTIVE: {
    status: 409,
    meaning: 'An active rule set is not reverted; activate the version to run instead, so its pins are checked.',
  },
  RULESET_RULE_UNUSABLE: { status: 409, meaning: 'The set pins rules since disabled or archived; details.rules name them.' },
  RULESET_REFUSED: { status: 422, meaning: 'The pins are refused; details name every rule at fault.' },
  RULESET_RUN_FAILED: { status: 503, meaning: 'A rule threw or gave no answer in time; nothing was recorded; retry.' },
  PIN_NOT_FOUND: { status: 400, meaning: 'The body names a rule the set does not pin.' },
  PINS_CURRENT: { status: 409, meaning: 'Every pin named is at its rule’s running version already.' },
  PINS_WITH_STATUS: { status: 400, meaning: 'New pins save a draft version: change status or the active version in a second request.' },
  INVALID_REPLACEMENT: { status: 400, meaning: 'A rule set cannot replace itself.' },
  REPLACED_BY_NOT_ARCHIVED: { status: 400, meaning: 'replaced_by names the replacement of an archived set: archive it too.' },
  // Drafting from an MCP client's configuration (docs/mcp.md, "Starting from what you have").
  INVALID_CLIENT_CONFIG: {
    status: 422,
    meaning:
      'The MCP client configuration does not read (NOT_JSON, TOO_DEEP, DUPLICATE_MEMBER, NOT_CLIENT_CONFIG) or holds a value where a variable’s name belongs; details.problems give each with its path, line and column. Nothing was started or saved.',
  },
  VARIABLE_NOT_SET: {
    status: 422,
    meaning:
      'A variable the configuration names is not in the server’s environment; details.problems name each. Nothing was started or saved.',
  },
  DOCUMENT_EXISTS: {
    status: 409,
    meaning: 'A catalogue, policy or agent the import would draft has versions already; details.problems name them. Nothing was saved.',
  },
  NOTHING_TO_IMPORT: {
    status: 422,
    meaning: 'No server of the configuration listed a tool that can be drafted; details.problems say why for each. Nothing was saved.',
  },
  DRAFT_REFUSED: {
    status: 422,
    meaning:
      'A drafted document was refused by its reader or the edit seam (details.problems, each naming its document); details.saved lists the drafts saved before it, none running.',
  },
  // A bug.
  INTERNAL: { status: 500, meaning: 'The server could not answer; nothing was written. A bug: report it.' },
} as const satisfies Record<string, ApiCodeEntry>;

/** A top-level API error code. */
export type ApiCode = keyof typeof API_CODES;

/** Every API error code, in the registry's order (the OpenAPI enum's order). */
export const API_CODE_NAMES = Object.keys(API_CODES) as ApiCode[];
