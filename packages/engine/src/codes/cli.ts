// Part of the one code registry (index.ts). The codes the `tollgate` CLI answers of its own (docs/cli.md, "The
// CLI's codes"), each `cli` text with the exit code; a code a reader or the API answers too keeps its entry there
// with `cli` among its domains. The codes of a document's problems the CLI passes on are their readers'.
// Users script against these codes: a code is never reused.
import type { CodeEntry } from './entry.ts';

/** A code only the CLI answers: its meaning, and when the CLI answers it (with the exit code). */
function cli(meaning: string, when: string) {
  return { severity: 'error', meaning, in: { cli: when } } as const satisfies CodeEntry;
}

export const CLI_CODES = {
  USAGE: cli(
    'The command line is not one the CLI accepts: an unknown command or flag, a missing or malformed argument.',
    'An unknown command or flag, a missing or malformed argument, a role or grant that is not one (exit 2, with the synopsis and the help pointer).',
  ),
  INVALID_ARGUMENTS: cli('A call’s arguments are JSON but not an object.', '`--args` is JSON but not an object (exit 2).'),
  FILE_EXISTS: cli(
    'An output file exists already and --force is not given.',
    '`--out`, `--examples-out`, or `init`’s `--key-out` or `--agent-key-out` names an existing file and `--force` is not given (exit 2).',
  ),
  UNWRITABLE: cli(
    'An output file or folder cannot be written; nothing partial is left.',
    'An output file cannot be written, or the data folder cannot be made; nothing partial is left (exit 2). `member-key-secret rotate`: the rows are sealed with the new secret but the data folder’s own `member-key.secret` could not be replaced; the message says to copy the new secret over it (exit 2).',
  ),
  INVALID_CALL: cli('A call file is not of a call’s shape.', '`rules check`’s or `ruleset run`’s CALL.json is not of its shape (exit 2).'),
  UNREACHABLE: cli(
    'The service named with --server cannot be reached.',
    '`rules compile --server`, `approvals key create|approve|deny`, `trial start|show|stop`: the service cannot be reached, or (`approvals`, `trial`) did not answer within 10 s (exit 3).',
  ),
  SERVICE_ERROR: cli(
    'The service named with --server answered, but not with what was asked.',
    '`rules compile --server`: the service answered 401, 403, 5xx or something not its API; `approvals key create|approve|deny`, `trial start|show|stop`: it answered something not its API (exit 4).',
  ),
  STORE_DAMAGED: cli(
    'The store cannot be opened: a file of it is damaged (docs/store.md, "Faults").',
    '`serve`, `mcp`, `mcp import`, `import`, `export`: the store cannot be opened (exit 2); `store repair`: the store could not be opened after the repair (exit 1).',
  ),
  MEMBER_KEY_SECRET_REQUIRED: cli(
    'A shared database needs the secret that seals members’ custodial signing keys and webhook signing secrets, and none was given.',
    '`serve`, `mcp`, `keys`, `members`, `webhooks`, `member-key-secret rotate` on --database: neither TOLLGATE_MEMBER_KEY_SECRET nor --member-key-secret-file (or TOLLGATE_MEMBER_KEY_SECRET_FILE) is given; `member-key-secret rotate` on a data folder: none is given and the folder holds no `member-key.secret` (exit 2; docs/approver-keys.md).',
  ),
  MEMBER_KEY_SECRET_UNREADABLE: cli(
    'The member key secret cannot be read, or is shorter than 32 characters.',
    '`serve`, `mcp`, `keys`, `members`, `webhooks`, `member-key-secret rotate`: the secret file (or `rotate`’s `--new-secret-file`) cannot be read, or the secret is shorter than 32 characters (exit 2).',
  ),
  MEMBER_KEY_SECRET_MISMATCH: cli(
    'The member key secret given does not open what is stored sealed with it (members’ custodial signing keys, webhook signing secrets); nothing was written, nothing signed.',
    '`serve`, `mcp`, `keys`, `members`, `webhooks`: the secret is not the one the stored keys or webhook secrets were sealed with (exit 2); `member-key-secret rotate`: the current secret does not open one of them, named, and nothing was written (exit 2); a webhook delivery attempt by a node whose secret does not open the subscription’s secret is recorded failed with this code, nothing sent (docs/webhooks.md, "The secret at rest").',
  ),
  MEMBER_KEY_SECRET_UNCHANGED: cli(
    'The new member key secret is the one in use; nothing was written.',
    '`member-key-secret rotate`: `--new-secret-file` holds the secret the keys are sealed with now (exit 1).',
  ),
  NODES_RUNNING: cli(
    'A node is running on the store, holding a key of the member key secret in use; nothing was written.',
    '`member-key-secret rotate`: the node registry shows a live node (each named), or on --database another one and `--force` is not given (exit 1; docs/approver-keys.md).',
  ),
  ROTATION_CONFLICT: cli(
    'A member or webhook was added or changed while the member key secret was being rotated; nothing was written.',
    '`member-key-secret rotate`: a row no longer holds what was read, or a row was added, before the write (exit 1); run it again.',
  ),
  WEBHOOK_URL_REFUSED: {
    severity: 'error',
    meaning: 'A webhook URL Tollgate will not send to (docs/webhooks.md, "Where deliveries may go").',
    in: {
      cli: '`webhooks add`: the URL is not https, or its host resolves to a loopback, private, link-local or CGNAT address, and the operator does not allow it (exit 1).',
    },
  },
  NOT_FOUND: {
    severity: 'error',
    meaning: 'The resource does not exist; details.resource says which kind (document, version, ruleset, agent, ...).',
    in: { cli: '`webhooks remove`: no current subscription has the id given (exit 1).' },
  },
  LOCKED: {
    severity: 'error',
    meaning: 'Another process holds the store’s lock; nothing was written.',
    in: {
      cli: '`serve` (exit 2), `store repair` or `member-key-secret rotate` (exit 1): another process held the store’s lock (or, on --database, the tables) past the wait.',
    },
  },
  INVALID_KEY: {
    severity: 'error',
    meaning: 'The key is not known, or not the key of the agent it is used for.',
    in: {
      cli: '`mcp`: TOLLGATE_AGENT_KEY is not a key of the agent named, or is revoked or expired, which the message says (exit 2; not a usage error).',
    },
  },
  DATABASE_UNREACHABLE: cli(
    'The PostgreSQL database named does not answer.',
    '`serve`, `migrate`, `import`, `export`, `keys`, `members`, `member-key-secret rotate` with `--database`: the database does not answer (exit 2).',
  ),
  SCHEMA_MISSING: cli(
    'The database holds no Tollgate schema; run tollgate migrate (docs/deploy.md, "Migrations").',
    '`serve`, `mcp`, `import`, `export`, `keys`, `members` with `--database`: the database has no Tollgate schema yet (exit 2).',
  ),
  SCHEMA_OUTDATED: cli(
    'The database’s schema is older than this Tollgate’s; run tollgate migrate (docs/deploy.md, "Migrations").',
    '`serve`, `mcp`, `import`, `export`, `keys`, `members` with `--database`: the schema misses steps this Tollgate knows (exit 2).',
  ),
  SCHEMA_NEWER: cli(
    'The database was migrated by a newer Tollgate, whose steps this one does not know (docs/deploy.md, "Migrations").',
    '`serve`, `mcp`, `import`, `export`, `keys`, `members` with `--database` (exit 2), `migrate` (exit 1): the schema holds steps this Tollgate does not know.',
  ),
  DATABASE_NOT_EMPTY: cli(
    'The database to import into already holds documents or members; nothing was written.',
    '`import`: the database already holds a document or a member; nothing was written (exit 1).',
  ),
  DATA_NOT_EMPTY: cli(
    'The data folder to export into already holds a workspace; nothing was written.',
    '`export`: the data folder already holds documents, or members, keys or authorizations; nothing was written (exit 1).',
  ),
  DATA_MISSING: cli(
    'There is no data folder (or no workspace in it) where the command reads one.',
    '`import`: the data folder holds neither `documents/` nor `tollgate.db`; `members list|role|remove`, `keys list|rotate|revoke`, `member-key-secret rotate`, `ruleset validate`, `ruleset run`: there is no folder at `--data` (exit 2).',
  ),
  IMPORT_FAILED: cli(
    'A document or the state could not be moved into the database; nothing was written.',
    '`import`: a document (named) or the state rows could not be written; the transaction was rolled back (exit 1).',
  ),
  EXPORT_FAILED: cli(
    'A document could not be written to the data folder; those before it are there.',
    '`export`: a document could not be written (named); the documents before it are in the folder (exit 1).',
  ),
  INVALID_IDENTITY: cli(
    'The identity file (`serve --identity`) is not of its shape; the message names the JSON Pointer of each fault.',
    '`serve --identity FILE` (or TOLLGATE_IDENTITY_FILE): the file is not JSON or not of the identity configuration’s shape; nothing is served (exit 2).',
  ),
  RECORD_UNREADABLE: cli(
    'A record file (`tollgate audit verify`) is not JSON lines of a record; the message names the line.',
    '`audit verify FILE`: a line is not JSON read exactly, not a writer, entry or checkpoint line, or holds a public key that is not Ed25519 (exit 2).',
  ),
  RECORD_BROKEN: cli(
    'The record does not verify: an entry was changed, removed, inserted or reordered, or a checkpoint does not match (docs/audit.md).',
    '`audit verify FILE`: the first line where the record breaks, with why (exit 1).',
  ),
  RECEIPT_UNREADABLE: cli(
    'A receipt file (`tollgate audit verify-receipt`) is not a receipt read exactly; the message names the JSON Pointer.',
    '`audit verify-receipt FILE`: the file is not JSON read exactly, not of a receipt’s shape, or holds a public key that is not Ed25519 (exit 2).',
  ),
  RECEIPT_BROKEN: cli(
    'The receipt does not verify: an entry, a link, the checkpoint or an approval’s signature does not hold (docs/audit.md, "Receipts").',
    '`audit verify-receipt FILE`: what failed first, with why (exit 1).',
  ),
  API_KEY_MISSING: cli(
    'A command that calls a running server has no member key: TOLLGATE_API_KEY is not set.',
    '`approvals key create|approve|deny`, `trial start|show|stop`: TOLLGATE_API_KEY is unset or empty; the key is never a flag, since a command line shows in `ps` (exit 2).',
  ),
  KEY_FILE_INVALID: cli(
    'A device key file is not an Ed25519 private key in PEM (docs/approver-keys.md).',
    '`approvals approve|deny --key FILE`: the file reads but holds no private key, or one that is not Ed25519 (exit 2).',
  ),
  KEY_NOT_ENROLLED: cli(
    'A device key file’s public half is not a device key of the member deciding; `tollgate approvals key create` makes and enrolls one.',
    '`approvals approve|deny --key FILE`: no device credential of the member whose key is in TOLLGATE_API_KEY has the file’s public key; nothing was sent (exit 1).',
  ),
  TEMPLATE_DEFAULTS: cli(
    'A template’s defaults do not make a valid draft: a bug of the template.',
    '`policy template show NAME`: the template’s defaults do not validate; a bug, report it (exit 70).',
  ),
  WORKSPACE_EXISTS: cli(
    'The folder `tollgate init` was given holds a workspace already.',
    '`init`: DIR holds a workspace (`documents/` or `tollgate.db`) and `--force` is not given; nothing was made (exit 1).',
  ),
  FOLDER_NOT_EMPTY: cli(
    'The folder `tollgate init` was given holds files and no workspace.',
    '`init`: DIR holds files but no workspace; init never moves files it did not make, `--force` or not (exit 1).',
  ),
} as const satisfies Record<string, CodeEntry>;
