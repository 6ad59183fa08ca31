// The CLI's help text, and each command's part of it (`tollgate COMMAND --help`, the pointer after a usage error).
export const USAGE = `tollgate: governs what AI agents do with their tools.

Usage:
  tollgate serve [--data DIR | --database URL] [--host 127.0.0.1] [--port 8787] [--demo] [--language-revision 4]
                 [--mcp-approval-wait 600] [--mcp-upstream-timeout 30] [--drain-timeout 10] [--drain-delay 0]
                 [--metrics-loopback] [--otlp-endpoint URL] [--cors-origin ORIGIN]... [--trust-forwarded-proto]
                 [--identity FILE] [--audit-log FILE|-] [--member-key-secret-file FILE] [--rp-id NAME]
                 [--webhooks-allow-http] [--webhooks-allow-private]
      Serves the console and the API over a data folder (documents + tollgate.db; .tollgate-data unless
      given), and MCP at /mcp. --demo seeds a fresh folder with a demo workspace and prints its keys once.
      --database postgres://... (or TOLLGATE_DATABASE_URL) runs the node on a PostgreSQL database that several
      nodes share instead: documents and state live there (docs/deploy.md); --data then holds only demo keys.
      On SIGTERM it fails readiness, still answers for --drain-delay seconds (or TOLLGATE_DRAIN_DELAY; 0; a
      second signal ends the delay), stops accepting, lets calls in flight finish for --drain-timeout seconds
      (or TOLLGATE_DRAIN_TIMEOUT; 10), writes the decision log, leaves the node registry and exits 0.
      --metrics-loopback (or TOLLGATE_METRICS_LOOPBACK=1) answers GET /metrics without a key from loopback;
      --otlp-endpoint URL (or OTEL_EXPORTER_OTLP_ENDPOINT) exports traces by OTLP/HTTP (docs/deploy.md).
      --cors-origin ORIGIN (repeatable; or TOLLGATE_CORS_ORIGINS, comma-separated) lets pages on that origin call
      the API; --trust-forwarded-proto (or TOLLGATE_TRUST_FORWARDED_PROTO=1) takes a proxy's X-Forwarded-Proto:
      https as TLS, for Strict-Transport-Security (docs/security.md).
      --audit-log FILE (or TOLLGATE_AUDIT_LOG; - for stdout) appends each record entry and checkpoint as a JSON
      line as it is chained, for a SIEM; over 8 MiB behind, lines are dropped and counted (docs/audit.md).
      --identity FILE (or TOLLGATE_IDENTITY_FILE) accepts tokens of the OpenID Connect issuers it names beside keys,
      and describes /mcp as a protected resource (docs/security.md).
      Members' custodial signing keys and webhook signing secrets are sealed with TOLLGATE_MEMBER_KEY_SECRET or
      --member-key-secret-file FILE (or TOLLGATE_MEMBER_KEY_SECRET_FILE); a data folder makes member-key.secret in
      itself when none is given, a database needs it given. --rp-id NAME (or TOLLGATE_RP_ID) binds passkeys to that host name; the console's
      host unless given (docs/approver-keys.md).
      Every serve node delivers webhooks (docs/webhooks.md): https to public addresses only, unless
      --webhooks-allow-http (or TOLLGATE_WEBHOOKS_ALLOW_HTTP=1) and --webhooks-allow-private (or
      TOLLGATE_WEBHOOKS_ALLOW_PRIVATE=1) allow http and loopback, private and link-local addresses.
      On PostgreSQL --pg-max, --pg-connect-timeout-ms, --pg-statement-timeout-ms, --pg-lock-timeout-ms,
      --pg-idle-in-transaction-ms and --pg-query-timeout-ms bound its pool (docs/deploy.md, "Sizing").
  tollgate init [DIR] [--owner NAME] [--agent NAME] [--template NAME [--param KEY=VALUE ...] | --from-mcp FILE]
                [--key-out FILE] [--agent-key-out FILE] [--upstream-timeout 30] [--yes] [--force] [--json]
      Makes a workspace in DIR (.tollgate-data unless given, or TOLLGATE_DATA): an owner and one agent, each with a
      key printed once, a catalogue, a policy from a template (support-refunds unless given; policy template list)
      with its example suite, and the settings; --from-mcp drafts them from an MCP client's file as mcp import does.
      Every document is a version that does not run until a person activates it; the next steps say how. Answers
      no flag gave are asked on a terminal (--yes takes every default). Exit 0 made; 1 WORKSPACE_EXISTS (--force
      moves it aside), FOLDER_NOT_EMPTY, UNKNOWN_TEMPLATE or a refused parameter; 2 unreadable input or usage.
  tollgate migrate --database URL [--json]
      Creates or upgrades the PostgreSQL schema (numbered migrations; safe to run again). A node refuses a
      schema older or newer than it knows. Exit 0 current, 1 the schema is newer than this Tollgate, 2 unreachable.
  tollgate mcp --agent NAME [--data DIR | --database URL] [--approval-wait 600] [--upstream-timeout 30] [--language-revision 4]
      Serves MCP over stdio as the agent (its key in TOLLGATE_AGENT_KEY): the catalogue tools mapped to
      mcp/servers.yaml's upstreams, every call decided by the gate before an upstream sees it (docs/mcp.md).
      --language-revision N (1-4) on serve and mcp caps the policy language revision the node decides and
      declares to the other gateways on the data folder (docs/deploy.md).
  tollgate mcp import FILE --data DIR [--agent mcp-agent] [--catalogue ID] [--upstream-timeout 30] [--json]
      Drafts mcp/servers.yaml, a catalogue, a deny-by-default policy and an agent from an MCP client's
      mcpServers file, listing each server's tools; saved as versions that do not run (a person activates
      them). Secrets stay out: it prints the variables to set. Exit 0 drafted, 1 nothing drafted.
  tollgate import --data DIR --database URL [--json]
      Moves a folder workspace into a migrated, empty database in one transaction: every document with its
      whole history, members with their signing keys, keys, tool authorizations, upstream definitions seen.
      Decisions, approvals and trial counts stay in DIR/tollgate.db as an archive. Exit 0 moved, 1 the
      database is not empty or a document could not be moved (nothing written), 2 unreachable or not migrated.
  tollgate export --database URL --data DIR [--json]
      The reverse, into a new or empty data folder (so the documents can be kept in git). Exit 0 written,
      1 the folder holds documents or a document could not be written, 2 unreachable or not migrated.
  tollgate keys create (--data DIR | --database URL) (--member NAME --role ROLE | --agent NAME) [--grant G ...] [--name NAME] [--expires-in DURATION] [--json]
      Prints a new key (stored hashed); a member's key has the grants of its role (admin: catalogue) and any --grant.
  tollgate keys list (--data DIR | --database URL) [--member NAME | --agent NAME] [--json]
      Lists keys (never the keys themselves): holder, name, hint, status, expiry, last use.
  tollgate keys rotate KEY_ID (--data DIR | --database URL) [--overlap DURATION] [--expires-in DURATION] [--json]
      Prints a new key for the same holder; the old one works for the overlap (default 0s, at most 30d), then not.
  tollgate keys revoke KEY_ID (--data DIR | --database URL) [--json]
      Revokes a key: every node refuses it (KEY_REVOKED) on its next call.
  tollgate members list (--data DIR | --database URL) [--json]
      Lists the members.
  tollgate members add NAME --role ROLE (--data DIR | --database URL) [--json]
      Adds a member (or brings back a removed one) with the role.
  tollgate members role NAME --role ROLE (--data DIR | --database URL) [--json]
      Changes a member's role (their keys' grants follow); the last owner stays an owner (LAST_OWNER, exit 1).
  tollgate members remove NAME (--data DIR | --database URL) [--json]
      Removes a member and revokes their keys; never the last owner (LAST_OWNER, exit 1).
  tollgate member-key-secret rotate --new-secret-file FILE (--data DIR | --database URL) [--force] [--json]
      Seals every member's custodial key and every webhook signing secret anew with the secret in FILE (at least 32
      characters), in one transaction; the current secret comes from where serve takes it. A data folder's own
      member-key.secret is then replaced (mode 0600); else give every node the new secret. Refused while a node runs
      (NODES_RUNNING; --force on --database), or when the current secret does not open one (MEMBER_KEY_SECRET_MISMATCH):
      exit 1, nothing written. Exit 2 usage or a secret file unreadable or short (docs/approver-keys.md).
  tollgate webhooks add URL --event EVENT... (--data DIR | --database URL) [--for-agent NAME]... [--for-tool NAME]...
      [--for-policy DOC]... [--format standard|slack] [--include-arguments] [--json]
      Subscribes URL to approval events (approval.pending, .approved, .denied, .expired, .claimed) or every deny
      (decision.denied), only of the agents, tools or policies given; prints the signing secret once. https only, and no loopback or private address, unless TOLLGATE_WEBHOOKS_ALLOW_HTTP=1
      or TOLLGATE_WEBHOOKS_ALLOW_PRIVATE=1 (WEBHOOK_URL_REFUSED, exit 1; docs/webhooks.md).
  tollgate webhooks list (--data DIR | --database URL) [--json]
      Lists the subscriptions (never their secrets).
  tollgate webhooks remove WEBHOOK_ID (--data DIR | --database URL) [--json]
      Removes a subscription; its pending deliveries are given up (NOT_FOUND, exit 1, for none).
  tollgate webhooks rotate-secret WEBHOOK_ID (--data DIR | --database URL) [--json]
      A new signing secret, printed once; deliveries from then on are signed with it (NOT_FOUND, exit 1, for none).
  tollgate policy validate FILE [--members FILE] [--tools FILE] [--json]
      Validates a policy@1 document. Exit 0 valid, 1 invalid, 2 unreadable or not JSON.
  tollgate policy evaluate FILE --tool TOOL.json --args ARGS.json [--members FILE] [--json]
      Decides one call: allow, require_approval or deny, with the rule and why.
      Exit 0 whatever the decision, 1 when the document is invalid, 2 unreadable.
  tollgate policy test FILE --examples FILE [--json]
      Runs example calls. Exit 0 when every expected outcome holds, 1 otherwise.
  tollgate policy map POLICY --tools TOOLS.json [--members FILE] [--time-limit SECONDS] [--json]
      The decision of every tool: allow, require approval (by whom), deny, or the amount bands and
      argument rules it depends on. Exit 0 whatever the decisions, 1 when the document is invalid, 2 unreadable.
  tollgate policy diff RUNNING CANDIDATE [--tools TOOLS.json] [--members FILE] [--time-limit SECONDS] [--json]
      Every region of calls the candidate decides differently from RUNNING, from what to what, and
      whether it widens or narrows (every class of tool without --tools). Exit codes as for map.
  tollgate policy template list [--json]
  tollgate policy template show NAME [--json]
  tollgate policy template create NAME [--param KEY=VALUE ...] [--out FILE] [--examples-out FILE] [--force]
      Drafts a policy from a template (never activates anything).
  tollgate rules compile FILE [--catalogue FILE] [--out-dir DIR] [--server URL] [--json]
      Compiles a rule sheet (.yaml) or Colang (.co) to a rulebook. Exit 0 compiled (lints on stderr),
      1 refused, 2 unreadable, 3 the --server cannot be reached, 4 it answered without compiling
      (401/403/5xx). --out-dir writes rule_sheet.co (from a sheet), rulebook.ir.json and
      catalogue_overlay.json, all or nothing.
  tollgate rules check FILE --call CALL.json [--catalogue FILE] [--json]
      The tool check on one call: allow, refuse (rule, reason) or confirm (the words to ask).
  tollgate rules equivalent A B
      Exit 0 when A and B compile to one rulebook, 1 naming the first difference.
  tollgate ruleset validate FILE --data DIR [--json]
      Checks a rule set's text against the data folder's rules; every refusal names the rules at fault.
      Exit 0 valid, 1 refused, 2 unreadable.
  tollgate ruleset run ID --call CALL.json --data DIR [--version N] [--json]
      Runs a stored rule set (its active version, or N) against one call: the verdict is pass or fail, with each
      rule's own result (pass, hold or fail). Exit 0 whatever the verdict, 1 when the set is refused (archived, disabled, ...).
  tollgate store check --data DIR [--json]
      Reports every inconsistency of the data folder's store (damaged index or version, orphan, stale
      marker, working copy differing from the running version). Exit 0 whole, 1 problems, 2 unreadable.
  tollgate store repair --data DIR [--json]
      Fixes what can be fixed without losing anything (strays go to lost+found); a working copy that does not
      load is kept as a rejected version, never run. Exit 0 whole after it, 1 when something is left.
  tollgate verify DIR
      Checks every document of a documents folder and runs each policy's example suite against it.
      Exit 1 on any problem or failed example, 0 with lints only.
  tollgate audit export (--data DIR | --database URL) [--since TIME] [--until TIME] [--out FILE [--force]]
      Writes the record as JSON lines (docs/audit.md): writers and their public keys, every entry restated from
      the row it states, the keys of members who signed approvals, every checkpoint; --since/--until (ISO
      times) export the entries of that time, verifiable on their own. Stdout unless --out.
  tollgate audit verify FILE [--json]
      Checks a record's JSON lines offline: every hash, link and checkpoint signature (docs/audit.md). Exit 0
      verified, 1 broken (the first line where, RECORD_BROKEN), 2 unreadable (RECORD_UNREADABLE).
  tollgate audit verify-receipt FILE [--json]
      Checks a decision's receipt (GET /v1/decisions/{call_id}/receipt) offline with the keys inside it: hashes,
      links to the signed checkpoint, its signature, the approval's signatures (docs/audit.md, "Receipts"). Exit 0
      verified, 1 broken (what failed, RECEIPT_BROKEN), 2 unreadable (RECEIPT_UNREADABLE).
  tollgate approvals key create --out FILE [--label TEXT] [--force] [--server URL] [--json]
      Makes an Ed25519 device key: writes the private key to FILE (PKCS#8 PEM, mode 0600; an existing file is kept
      unless --force) and enrolls its public half as a device key of the member whose key is in TOLLGATE_API_KEY,
      on the server at --server (or TOLLGATE_SERVER; http://127.0.0.1:8787). Prints the credential id and fingerprint.
  tollgate approvals approve ID --key FILE [--reason TEXT] [--server URL] [--json]
      Approves a held call with a device key, as deny below denies one.
  tollgate approvals deny ID --key FILE [--reason TEXT] [--server URL] [--json]
      Denies a held call with a device key. Either signs the decision's content with FILE locally and sends only the
      signature (docs/approver-keys.md). Exit 0 decided, 1 the key is not enrolled (KEY_NOT_ENROLLED), 2 unreadable
      or no TOLLGATE_API_KEY, 3 the server cannot be reached (10 s bound), 4 it refused (its code is printed).
  tollgate trial start DOCUMENT --version N --sample-rate RATE [--agent NAME] [--tool NAME] [--ends-at ISO] [--max-samples N]
                       [--server URL] [--json]
      Starts a trial of the policy's stored version N beside the running one on a share RATE of live calls (a plain
      decimal above 0 and at most 1), of one agent or tool if given, until ISO (RFC 3339) or N samples (docs/review.md).
      As approvals: the server at --server (or TOLLGATE_SERVER; http://127.0.0.1:8787), the key in TOLLGATE_API_KEY
      (an owner's or admin's to start or stop).
  tollgate trial show DOCUMENT [--differences] [--server URL] [--json]
      The policy's trial: candidate, running or why it ended, scope, counts; "no trial" (exit 0) when it has none.
      --differences lists every differing call too, newest first, following the pages to the last.
  tollgate trial stop DOCUMENT [--server URL] [--json]
      Stops the trial (nothing is promoted). Exit 0 done; 2 usage or no TOLLGATE_API_KEY; 3 the server cannot be
      reached (10 s bound); 4 it refused (its code is printed: INVALID_SAVE, NOT_FOUND, FORBIDDEN, ...).
  tollgate help
      Prints this help.
  tollgate version
      Prints the version (tollgate --version too).

Files: a members file is [{"id": "<lowercase uuid>", "role": "owner|admin|approver|developer|viewer", "signing": true}];
a tools file is [{"name", "action", "amount"?: {"pointer", "currency", "currency_pointer"?}}]; TOOL.json is one tool;
an examples file is {"tools": [...], "examples": [{"name", "tool", "arguments", "expect": {"decision", "rule"?, "code"?}}]};
CALL.json is {"tool", "arguments", "contexts"?, "history"?: [{"tool", "arguments", "result"}], "confirmed"?}.
Exit code 2 also means a usage error. See docs/cli.md.
`;

interface CommandHelp {
  /** The words that name the command: `keys create`, `policy template show`. */
  command: string;
  /** Its lines of USAGE: the synopsis, then what it does. */
  text: string;
}

/** USAGE cut into its commands: an entry starts at a `  tollgate ...` line and runs to the next. */
const COMMANDS: CommandHelp[] = (() => {
  const out: CommandHelp[] = [];
  for (const line of USAGE.split('\n')) {
    const synopsis = /^ {2}tollgate ((?:[a-z][a-z-]* ?)+)/.exec(line);
    if (synopsis) out.push({ command: (synopsis[1] as string).trim(), text: `${line}\n` });
    else if (line.startsWith('    ') && out.length > 0) (out.at(-1) as CommandHelp).text += `${line}\n`;
  }
  return out;
})();

/** The command the words name (the longest one that starts them), if any. */
export function commandOf(words: string[]): string | undefined {
  let best: string | undefined;
  for (const { command } of COMMANDS) {
    const parts = command.split(' ');
    if (parts.every((p, i) => words[i] === p) && (best === undefined || parts.length > best.split(' ').length)) best = command;
  }
  return best;
}

/** `tollgate COMMAND --help`: the entries of the command (or of every command of a group), else the whole USAGE. */
export function helpFor(words: string[]): string {
  const command = commandOf(words);
  const group = words[0];
  const entries = command
    ? COMMANDS.filter((c) => c.command === command)
    : COMMANDS.filter((c) => group !== undefined && c.command.split(' ')[0] === group);
  if (entries.length === 0) return USAGE;
  return `${entries.map((e) => e.text).join('')}See docs/cli.md for the exit codes and file formats.\n`;
}

/** The two lines after a usage error's reason: the command's synopsis and where its help is. */
export function usagePointer(words: string[]): string {
  const command = commandOf(words);
  if (command === undefined) return "usage: tollgate COMMAND ...\nrun 'tollgate help' for the commands\n";
  const synopsis = (COMMANDS.find((c) => c.command === command) as CommandHelp).text.split('\n')[0]?.trim();
  return `usage: ${synopsis}\nrun 'tollgate ${command} --help' for more\n`;
}
