// The server's state in SQLite (better-sqlite3, WAL): members, keys, decisions, approvals, tool authorizations,
// gateways. Migrations are versioned in code and run once each, in order, inside a transaction.
import Database from 'better-sqlite3';

export type Db = Database.Database;

/** Each migration runs once; never edit one that has shipped, add the next. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE members (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'approver', 'developer', 'viewer')),
     public_key TEXT NOT NULL,
     private_key TEXT NOT NULL,
     signing INTEGER NOT NULL DEFAULT 1,
     created_at TEXT NOT NULL
   );
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     hash TEXT NOT NULL UNIQUE,
     member_id TEXT REFERENCES members(id),
     agent TEXT,
     grants TEXT NOT NULL DEFAULT '[]',
     created_at TEXT NOT NULL,
     CHECK ((member_id IS NULL) <> (agent IS NULL))
   );
   CREATE TABLE decisions (
     call_id TEXT PRIMARY KEY,
     agent TEXT NOT NULL,
     tool TEXT NOT NULL,
     action TEXT,
     amount TEXT,
     currency TEXT,
     decision TEXT NOT NULL,
     rule TEXT,
     code TEXT,
     versions TEXT NOT NULL,
     arguments TEXT,
     arguments_digest TEXT NOT NULL,
     session TEXT,
     created_at TEXT NOT NULL
   );
   CREATE INDEX decisions_by_agent ON decisions (agent, created_at);
   CREATE TABLE approvals (
     id TEXT PRIMARY KEY,
     call_id TEXT NOT NULL REFERENCES decisions(call_id),
     agent TEXT NOT NULL,
     tool TEXT NOT NULL,
     arguments_digest TEXT NOT NULL,
     policy_document TEXT NOT NULL,
     policy_sequence INTEGER NOT NULL,
     rule TEXT,
     description TEXT,
     approvers TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied')),
     expires_at TEXT NOT NULL,
     decided_by TEXT,
     decided_at TEXT,
     reason TEXT,
     signature TEXT,
     signed_content TEXT,
     claimed_at TEXT,
     created_at TEXT NOT NULL
   );
   CREATE INDEX approvals_by_status ON approvals (status, created_at);`,
  // A counter every change to members or keys moves, whichever connection makes it (the CLI's, a
  // person's sqlite3): the server caches keys and members and trusts them while it stands still.
  `CREATE TABLE auth_generation (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL);
   INSERT INTO auth_generation (id, generation) VALUES (1, 0);
   CREATE TRIGGER members_inserted AFTER INSERT ON members BEGIN UPDATE auth_generation SET generation = generation + 1; END;
   CREATE TRIGGER members_updated AFTER UPDATE ON members BEGIN UPDATE auth_generation SET generation = generation + 1; END;
   CREATE TRIGGER members_deleted AFTER DELETE ON members BEGIN UPDATE auth_generation SET generation = generation + 1; END;
   CREATE TRIGGER api_keys_inserted AFTER INSERT ON api_keys BEGIN UPDATE auth_generation SET generation = generation + 1; END;
   CREATE TRIGGER api_keys_updated AFTER UPDATE ON api_keys BEGIN UPDATE auth_generation SET generation = generation + 1; END;
   CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys BEGIN UPDATE auth_generation SET generation = generation + 1; END;`,
  // The decision log's reads stay index lookups however long the log grows: the newest decisions (the
  // console's list, 1.6 s at a million rows without), a session's history (read on every gate call with a
  // session: 230 ms), and the hourly sweep of arguments past retention (240 ms, on the event loop).
  `CREATE INDEX decisions_by_time ON decisions (created_at);
   CREATE INDEX decisions_by_session ON decisions (agent, session, created_at) WHERE session IS NOT NULL;
   CREATE INDEX decisions_with_arguments ON decisions (created_at) WHERE arguments IS NOT NULL;`,
  // Each catalogue tool's authorized binding (docs/catalogue.md, "The authorized binding"): the gate runs a
  // tool's calls only while its binding's digest is the one recorded here. The adoption row says the
  // bindings present when this first ran were recorded (as authorized by system), so it happens once.
  `CREATE TABLE tool_authorizations (
     catalogue TEXT NOT NULL,
     tool TEXT NOT NULL,
     digest TEXT NOT NULL,
     binding TEXT NOT NULL,
     authorized_by TEXT NOT NULL,
     authorized_by_name TEXT NOT NULL,
     authorized_at TEXT NOT NULL,
     PRIMARY KEY (catalogue, tool)
   );
   CREATE TABLE tool_authorizations_adopted (id INTEGER PRIMARY KEY CHECK (id = 1), adopted_at TEXT NOT NULL);`,
  // Trials' counts (docs/review.md, "Trials on live calls"): one UPDATE adds a call, so concurrent calls and
  // processes lose no count; the newest differing calls are kept with both answers.
  `CREATE TABLE trial_counts (
     document TEXT NOT NULL,
     started_at TEXT NOT NULL,
     calls INTEGER NOT NULL DEFAULT 0,
     sampled INTEGER NOT NULL DEFAULT 0,
     agreed INTEGER NOT NULL DEFAULT 0,
     differed INTEGER NOT NULL DEFAULT 0,
     PRIMARY KEY (document, started_at)
   );
   CREATE TABLE trial_differences (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     document TEXT NOT NULL,
     started_at TEXT NOT NULL,
     call_id TEXT NOT NULL,
     running TEXT NOT NULL,
     candidate TEXT NOT NULL
   );
   CREATE INDEX trial_differences_by_trial ON trial_differences (document, started_at, id);`,
  // Shadow runs of rule files (docs/review.md, "Shadow runs of rule files"): each decision keeps the rules whose
  // verdict a candidate would change; the partial index finds them however long the log grows.
  `ALTER TABLE decisions ADD COLUMN shadow_differences TEXT;
   CREATE INDEX decisions_with_shadow_differences ON decisions (created_at) WHERE shadow_differences IS NOT NULL;`,
  // Pinned tool definitions (docs/mcp.md, "Pinned tool definitions"): the latest definition each upstream
  // tool was seen with, and the one an owner or admin authorized with a tool's binding. The counter moves on
  // every authorization, from any connection (a `tollgate mcp` beside `tollgate serve`), so each process's
  // loaded agents and pins are trusted only while it stands still.
  `CREATE TABLE upstream_tools (
     server TEXT NOT NULL,
     tool TEXT NOT NULL,
     digest TEXT NOT NULL,
     definition TEXT NOT NULL,
     seen_at TEXT NOT NULL,
     PRIMARY KEY (server, tool)
   );
   ALTER TABLE tool_authorizations ADD COLUMN upstream_digest TEXT;
   ALTER TABLE tool_authorizations ADD COLUMN upstream_definition TEXT;
   CREATE TABLE tool_authorization_generation (id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL);
   INSERT INTO tool_authorization_generation (id, generation) VALUES (1, 0);
   CREATE TRIGGER tool_authorizations_inserted AFTER INSERT ON tool_authorizations BEGIN UPDATE tool_authorization_generation SET generation = generation + 1; END;
   CREATE TRIGGER tool_authorizations_updated AFTER UPDATE ON tool_authorizations BEGIN UPDATE tool_authorization_generation SET generation = generation + 1; END;
   CREATE TRIGGER tool_authorizations_deleted AFTER DELETE ON tool_authorizations BEGIN UPDATE tool_authorization_generation SET generation = generation + 1; END;`,
  // How each call arrived (docs/mcp.md, "Calls marked as MCP"): 'http' for POST /v1/agents/{agent}/calls, 'mcp' for
  // the MCP gateway's tools/call; rows written before this column read as 'http'.
  `ALTER TABLE decisions ADD COLUMN via TEXT CHECK (via IN ('http', 'mcp'));`,
  // The gateway registry (docs/deploy.md, "The language gate"): each
  // process that decides calls, the highest policy language revision it decides, and its heartbeat. A node is
  // live while last_seen is within WINDOW_HEARTBEATS of its own heartbeat_ms, so readers need no setting of it.
  `CREATE TABLE gateways (
     id TEXT PRIMARY KEY,
     version TEXT NOT NULL,
     language_revision INTEGER NOT NULL CHECK (language_revision BETWEEN 1 AND 3),
     heartbeat_ms INTEGER NOT NULL CHECK (heartbeat_ms > 0),
     started_at TEXT NOT NULL,
     last_seen TEXT NOT NULL
   );`,
  // Members and keys managed in the product (docs/security.md): a removed member's row stays, so the approvals
  // they signed still verify; a key's name, hint, maker, expiry, revocation and successor. When a key was last
  // used is its own table, so noting it moves no auth generation (no trigger on it) and empties no cache.
  // The record of changes to members and keys, oldest first by seq.
  `ALTER TABLE members ADD COLUMN removed_at TEXT;
   ALTER TABLE api_keys ADD COLUMN name TEXT;
   ALTER TABLE api_keys ADD COLUMN hint TEXT;
   ALTER TABLE api_keys ADD COLUMN created_by TEXT;
   ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
   ALTER TABLE api_keys ADD COLUMN revoked_at TEXT;
   ALTER TABLE api_keys ADD COLUMN revoked_by TEXT;
   ALTER TABLE api_keys ADD COLUMN rotated_to TEXT;
   CREATE TABLE key_usage (key_id TEXT PRIMARY KEY, last_used_at TEXT NOT NULL);
   CREATE TABLE identity_changes (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     subject TEXT NOT NULL,
     details TEXT NOT NULL
   );
   CREATE INDEX identity_changes_by_time ON identity_changes (at, seq);`,
  // The record's chains (docs/audit.md): each process run is a writer with its public key (never its private key),
  // its entries (the row each states, by ref) and its signed checkpoints.
  `CREATE TABLE record_writers (writer TEXT PRIMARY KEY, public_key TEXT NOT NULL, started_at TEXT NOT NULL);
   CREATE TABLE record_entries (
     writer TEXT NOT NULL,
     seq INTEGER NOT NULL,
     kind TEXT NOT NULL,
     at TEXT NOT NULL,
     ref TEXT,
     body TEXT NOT NULL,
     prev TEXT NOT NULL,
     hash TEXT NOT NULL,
     PRIMARY KEY (writer, seq)
   );
   CREATE INDEX record_entries_by_ref ON record_entries (ref) WHERE ref IS NOT NULL;
   CREATE TABLE record_checkpoints (
     writer TEXT NOT NULL,
     seq INTEGER NOT NULL,
     head TEXT NOT NULL,
     at TEXT NOT NULL,
     seen TEXT NOT NULL,
     signature TEXT NOT NULL,
     PRIMARY KEY (writer, seq)
   );
   CREATE INDEX record_checkpoints_by_time ON record_checkpoints (at);`,
  // Keys members hold themselves (docs/approver-keys.md): passkeys and device keys, each its public key (never a
  // private one), a passkey's COSE key, relying party and signature counter; a revoked one's row stays, so what it
  // signed still verifies. A decision signed with one keeps its proof on the request. Enrolling or revoking moves the
  // auth generation, so the members the gate judges approvers by are read again.
  `CREATE TABLE member_credentials (
     id TEXT PRIMARY KEY,
     member_id TEXT NOT NULL REFERENCES members(id),
     kind TEXT NOT NULL CHECK (kind IN ('passkey', 'device')),
     label TEXT,
     algorithm TEXT NOT NULL,
     public_key TEXT NOT NULL,
     cose_key TEXT,
     rp_id TEXT,
     counter INTEGER NOT NULL DEFAULT 0,
     created_at TEXT NOT NULL,
     revoked_at TEXT
   );
   CREATE INDEX member_credentials_by_member ON member_credentials (member_id);
   CREATE TRIGGER member_credentials_inserted AFTER INSERT ON member_credentials BEGIN UPDATE auth_generation SET generation = generation + 1; END;
   CREATE TRIGGER member_credentials_updated AFTER UPDATE ON member_credentials BEGIN UPDATE auth_generation SET generation = generation + 1; END;
   ALTER TABLE approvals ADD COLUMN proof TEXT;`,
  // A quorum (docs/policy.md, "Approvers"): how many distinct approvals a request needs, and each member's vote on it,
  // signed on its own; a member votes once (the key). Nodes may declare language revision 4, which decides it: the
  // registry's table is made again with the wider check (SQLite cannot alter one), its rows kept.
  `ALTER TABLE approvals ADD COLUMN quorum INTEGER NOT NULL DEFAULT 1 CHECK (quorum BETWEEN 1 AND 32);
   CREATE TABLE approval_votes (
     approval_id TEXT NOT NULL REFERENCES approvals(id),
     member_id TEXT NOT NULL,
     decision TEXT NOT NULL CHECK (decision IN ('approved', 'denied')),
     decided_at TEXT NOT NULL,
     reason TEXT,
     signature TEXT NOT NULL,
     signed_content TEXT NOT NULL,
     proof TEXT,
     PRIMARY KEY (approval_id, member_id)
   );
   CREATE TABLE gateways_4 (
     id TEXT PRIMARY KEY,
     version TEXT NOT NULL,
     language_revision INTEGER NOT NULL CHECK (language_revision BETWEEN 1 AND 4),
     heartbeat_ms INTEGER NOT NULL CHECK (heartbeat_ms > 0),
     started_at TEXT NOT NULL,
     last_seen TEXT NOT NULL
   );
   INSERT INTO gateways_4 SELECT id, version, language_revision, heartbeat_ms, started_at, last_seen FROM gateways;
   DROP TABLE gateways;
   ALTER TABLE gateways_4 RENAME TO gateways;`,
  // Webhook subscriptions, their durable outbox (one row per event per subscription, leased by the node delivering
  // it) and every attempt (docs/webhooks.md; state/webhooks/model.ts).
  `CREATE TABLE webhook_subscriptions (
     id TEXT PRIMARY KEY,
     url TEXT NOT NULL,
     events TEXT NOT NULL,
     filters TEXT NOT NULL,
     include_arguments INTEGER NOT NULL DEFAULT 0,
     format TEXT NOT NULL CHECK (format IN ('standard', 'slack')),
     secret TEXT NOT NULL,
     created_at TEXT NOT NULL,
     created_by TEXT NOT NULL,
     removed_at TEXT
   );
   CREATE TABLE webhook_outbox (
     id TEXT PRIMARY KEY,
     subscription_id TEXT NOT NULL REFERENCES webhook_subscriptions(id),
     event_key TEXT NOT NULL,
     type TEXT NOT NULL,
     body TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_at TEXT NOT NULL,
     leased_until TEXT,
     leased_by TEXT,
     created_at TEXT NOT NULL,
     UNIQUE (subscription_id, event_key)
   );
   CREATE INDEX webhook_outbox_due ON webhook_outbox (next_at) WHERE status = 'pending';
   CREATE TABLE webhook_attempts (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     outbox_id TEXT NOT NULL REFERENCES webhook_outbox(id),
     subscription_id TEXT NOT NULL,
     attempt INTEGER NOT NULL,
     node TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed')),
     http_status INTEGER,
     latency_ms INTEGER NOT NULL,
     error TEXT,
     excerpt TEXT,
     at TEXT NOT NULL
   );
   CREATE INDEX webhook_attempts_by_subscription ON webhook_attempts (subscription_id, at, seq);`,
  // Each approval transition, written in the transaction that makes it, until the webhook fan-out has turned it
  // into outbox rows (docs/webhooks.md, "The outbox"; webhooks/outbox.ts); the cursor of the every-deny fan-out
  // (webhooks/denies.ts) and the index it reads denied calls by, in write order.
  `CREATE TABLE approval_transitions (
     event_key TEXT PRIMARY KEY,
     approval_id TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'claimed')),
     at TEXT NOT NULL
   );
   CREATE TABLE webhook_cursors (
     name TEXT PRIMARY KEY,
     position INTEGER NOT NULL
   );
   CREATE INDEX decisions_denied ON decisions (decision) WHERE decision = 'deny';`,
  // Who made each document version run (activate, revert, a rule set's active version), beside the store's author of
  // it, so a version's history names both people under four eyes (docs/security.md; state/activations/model.ts).
  `CREATE TABLE document_activations (
     seq INTEGER PRIMARY KEY AUTOINCREMENT,
     document TEXT NOT NULL,
     sequence INTEGER NOT NULL,
     member_id TEXT NOT NULL,
     member_name TEXT NOT NULL,
     activated_at TEXT NOT NULL
   );
   CREATE INDEX document_activations_by_document ON document_activations (document, seq);`,
  // Trials scoped and bounded (docs/review.md, "Trials on live calls"): every differing call is kept, now with its
  // arguments' digest (never the values); rows kept before have none.
  `ALTER TABLE trial_differences ADD COLUMN arguments_digest TEXT;`,
  // A session's rows written since the last read (decisions/sqlite.ts, SESSION_HISTORY_SINCE_SQL) by a seek on
  // (agent, session, rowid) (every index ends in the rowid): by decisions_by_session the read walked every entry
  // of the session, 0.5 ms a call at 10,000 calls, so a long MCP session slowed as it grew.
  `CREATE INDEX decisions_by_session_row ON decisions (agent, session) WHERE session IS NOT NULL;`,
];

/**
 * Opens (creating if needed) the database and brings it to the latest migration.
 *
 * @example
 * const db = openDatabase('.tollgate-data/tollgate.db');
 */
export function openDatabase(path: string): Db {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set((db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[]).map((r) => r.version));
  MIGRATIONS.forEach((sql, i) => {
    const version = i + 1;
    if (applied.has(version)) return;
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, new Date().toISOString());
    })();
  });
  return db;
}

export const SCHEMA_VERSION = MIGRATIONS.length;
