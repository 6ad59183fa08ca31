// The server's state on PostgreSQL (docs/deploy.md, "The state stores"): the tables of db.ts, kept so the two
// stores answer alike. Times stay ISO text, as in SQLite, compared byte by byte (COLLATE "C") so ordering and
// comparisons match; `decisions` and `approvals` get a `rowid` of their own for keyset paging (keyset.ts) and the
// order of a session's calls. The generation counters move by triggers, as db.ts's do, from any node.
import { appliedVersion, applyMigrations, type MigrationSequence } from '@tollgate/store';
import type pg from 'pg';

/** Each step runs once, in order; never edit one that has shipped, add the next. */
export const POSTGRES_STATE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE members (
     id TEXT COLLATE "C" PRIMARY KEY,
     name TEXT COLLATE "C" NOT NULL UNIQUE,
     role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'approver', 'developer', 'viewer')),
     public_key TEXT NOT NULL,
     private_key TEXT NOT NULL,
     signing INTEGER NOT NULL DEFAULT 1,
     created_at TEXT COLLATE "C" NOT NULL
   );
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     hash TEXT NOT NULL UNIQUE,
     member_id TEXT REFERENCES members(id),
     agent TEXT,
     grants TEXT NOT NULL DEFAULT '[]',
     created_at TEXT COLLATE "C" NOT NULL,
     CHECK ((member_id IS NULL) <> (agent IS NULL))
   );
   CREATE TABLE decisions (
     rowid BIGSERIAL NOT NULL UNIQUE,
     call_id TEXT PRIMARY KEY,
     agent TEXT COLLATE "C" NOT NULL,
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
     session TEXT COLLATE "C",
     created_at TEXT COLLATE "C" NOT NULL,
     shadow_differences TEXT,
     via TEXT CHECK (via IN ('http', 'mcp'))
   );
   CREATE INDEX decisions_by_time ON decisions (created_at, rowid);
   CREATE INDEX decisions_by_agent ON decisions (agent, created_at, rowid);
   CREATE INDEX decisions_by_session ON decisions (agent, session, created_at, rowid) WHERE session IS NOT NULL;
   CREATE INDEX decisions_with_arguments ON decisions (created_at) WHERE arguments IS NOT NULL;
   CREATE INDEX decisions_with_shadow_differences ON decisions (created_at, rowid) WHERE shadow_differences IS NOT NULL;
   CREATE TABLE approvals (
     rowid BIGSERIAL NOT NULL UNIQUE,
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
     expires_at TEXT COLLATE "C" NOT NULL,
     decided_by TEXT,
     decided_at TEXT,
     reason TEXT,
     signature TEXT,
     signed_content TEXT,
     claimed_at TEXT,
     created_at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX approvals_by_time ON approvals (created_at, rowid);
   CREATE INDEX approvals_by_status ON approvals (status, created_at, rowid);`,
  // The counters every node's caches are trusted by (members/auth-cache.ts, tools/model.ts): a statement trigger
  // moves them on any change, whichever node or person (psql) makes it.
  `CREATE FUNCTION tollgate_bump_generation() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     EXECUTE format('UPDATE %I SET generation = generation + 1 WHERE id = 1', TG_ARGV[0]);
     RETURN NULL;
   END $$;
   CREATE TABLE auth_generation (id INTEGER PRIMARY KEY CHECK (id = 1), generation BIGINT NOT NULL);
   INSERT INTO auth_generation (id, generation) VALUES (1, 0);
   CREATE TRIGGER members_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON members
     FOR EACH STATEMENT EXECUTE FUNCTION tollgate_bump_generation('auth_generation');
   CREATE TRIGGER api_keys_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
     FOR EACH STATEMENT EXECUTE FUNCTION tollgate_bump_generation('auth_generation');`,
  // Tool authorizations and pinned upstream definitions (docs/catalogue.md, docs/mcp.md).
  `CREATE TABLE tool_authorizations (
     catalogue TEXT NOT NULL,
     tool TEXT NOT NULL,
     digest TEXT NOT NULL,
     binding TEXT NOT NULL,
     authorized_by TEXT NOT NULL,
     authorized_by_name TEXT NOT NULL,
     authorized_at TEXT NOT NULL,
     upstream_digest TEXT,
     upstream_definition TEXT,
     PRIMARY KEY (catalogue, tool)
   );
   CREATE TABLE tool_authorizations_adopted (id INTEGER PRIMARY KEY CHECK (id = 1), adopted_at TEXT NOT NULL);
   CREATE TABLE tool_authorization_generation (id INTEGER PRIMARY KEY CHECK (id = 1), generation BIGINT NOT NULL);
   INSERT INTO tool_authorization_generation (id, generation) VALUES (1, 0);
   CREATE TRIGGER tool_authorizations_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tool_authorizations
     FOR EACH STATEMENT EXECUTE FUNCTION tollgate_bump_generation('tool_authorization_generation');
   CREATE TABLE upstream_tools (
     server TEXT COLLATE "C" NOT NULL,
     tool TEXT COLLATE "C" NOT NULL,
     digest TEXT NOT NULL,
     definition TEXT NOT NULL,
     seen_at TEXT NOT NULL,
     PRIMARY KEY (server, tool)
   );`,
  // Trials' counts (docs/review.md, "Trials on live calls") and rule-set runs (ruleset-runs/).
  `CREATE TABLE trial_counts (
     document TEXT NOT NULL,
     started_at TEXT NOT NULL,
     calls BIGINT NOT NULL DEFAULT 0,
     sampled BIGINT NOT NULL DEFAULT 0,
     agreed BIGINT NOT NULL DEFAULT 0,
     differed BIGINT NOT NULL DEFAULT 0,
     PRIMARY KEY (document, started_at)
   );
   CREATE TABLE trial_differences (
     id BIGSERIAL PRIMARY KEY,
     document TEXT NOT NULL,
     started_at TEXT NOT NULL,
     call_id TEXT NOT NULL,
     running TEXT NOT NULL,
     candidate TEXT NOT NULL
   );
   CREATE INDEX trial_differences_by_trial ON trial_differences (document, started_at, id);
   CREATE TABLE ruleset_runs (
     ruleset TEXT NOT NULL,
     version INTEGER NOT NULL,
     verdict TEXT NOT NULL CHECK (verdict IN ('pass', 'hold', 'fail')),
     created_at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX ruleset_runs_by_set ON ruleset_runs (ruleset, created_at);`,
  // The gateway registry (docs/deploy.md, "The language gate").
  `CREATE TABLE gateways (
     id TEXT COLLATE "C" PRIMARY KEY,
     version TEXT NOT NULL,
     language_revision INTEGER NOT NULL CHECK (language_revision BETWEEN 1 AND 3),
     heartbeat_ms INTEGER NOT NULL CHECK (heartbeat_ms > 0),
     started_at TEXT COLLATE "C" NOT NULL,
     last_seen TEXT COLLATE "C" NOT NULL
   );`,
  // Calls of sessions recorded in one statement a batch (decisions/postgres-log.ts): the sessions' locks taken
  // first, in key order, so two batches from any nodes never wait on each other in a cycle; then each call is
  // written only if no allowed call of its session above the rowid its decider saw has been written (an earlier
  // call of the batch included); else those calls are answered, and nothing written, for the call to be decided
  // again on them. Each statement of a function reads what was committed when it began, so the checks see
  // every call written under the locks before they were taken. A row comes as JSON keyed by column, so a later
  // column needs no new function. Answers name their call by its place in the arrays, from 1.
  `CREATE FUNCTION tollgate_record_session_calls(p_locks TEXT[], p_agents TEXT[], p_sessions TEXT[], p_seen BIGINT[], p_rows JSONB[])
   RETURNS TABLE (item INTEGER, rowid BIGINT, call_id TEXT, tool TEXT, arguments TEXT, created_at TEXT, written BOOLEAN)
   LANGUAGE plpgsql AS $$
   #variable_conflict use_column
   DECLARE
     v_key BIGINT;
     v_rowid BIGINT;
     i INTEGER;
   BEGIN
     FOR v_key IN SELECT DISTINCT hashtextextended(l, 0) AS k FROM unnest(p_locks) AS l ORDER BY k LOOP
       PERFORM pg_advisory_xact_lock(v_key);
     END LOOP;
     FOR i IN 1 .. coalesce(array_length(p_locks, 1), 0) LOOP
       RETURN QUERY SELECT i, d.rowid, d.call_id, d.tool, d.arguments, d.created_at, FALSE FROM decisions d
         WHERE d.agent = p_agents[i] AND d.session = p_sessions[i] AND d.decision = 'allow' AND d.rowid > p_seen[i]
         ORDER BY d.created_at, d.rowid;
       IF NOT FOUND THEN
         v_rowid := nextval(pg_get_serial_sequence('decisions', 'rowid'));
         INSERT INTO decisions SELECT r.* FROM jsonb_populate_record(NULL::decisions, p_rows[i] || jsonb_build_object('rowid', v_rowid)) r;
         RETURN QUERY SELECT i, v_rowid, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::TEXT, TRUE;
       END IF;
     END LOOP;
   END $$;`,
  // Members and keys managed in the product (docs/security.md), as SQLite keeps them (db.ts): a removed member's
  // row stays; a key's name, hint, maker, expiry, revocation and successor; when a key was last used in a table
  // of its own, so noting it moves no auth generation; the record of changes to members and keys.
  `ALTER TABLE members ADD COLUMN removed_at TEXT COLLATE "C";
   ALTER TABLE api_keys ADD COLUMN name TEXT,
     ADD COLUMN hint TEXT,
     ADD COLUMN created_by TEXT,
     ADD COLUMN expires_at TEXT COLLATE "C",
     ADD COLUMN revoked_at TEXT COLLATE "C",
     ADD COLUMN revoked_by TEXT,
     ADD COLUMN rotated_to TEXT;
   CREATE TABLE key_usage (key_id TEXT PRIMARY KEY, last_used_at TEXT COLLATE "C" NOT NULL);
   CREATE TABLE identity_changes (
     seq BIGSERIAL PRIMARY KEY,
     at TEXT COLLATE "C" NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     subject TEXT NOT NULL,
     details TEXT NOT NULL
   );
   CREATE INDEX identity_changes_by_time ON identity_changes (at, seq);`,
  // The record's chains (docs/audit.md), as SQLite keeps them (db.ts).
  `CREATE TABLE record_writers (writer TEXT PRIMARY KEY, public_key TEXT NOT NULL, started_at TEXT COLLATE "C" NOT NULL);
   CREATE TABLE record_entries (
     writer TEXT NOT NULL,
     seq INTEGER NOT NULL,
     kind TEXT NOT NULL,
     at TEXT COLLATE "C" NOT NULL,
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
     at TEXT COLLATE "C" NOT NULL,
     seen TEXT NOT NULL,
     signature TEXT NOT NULL,
     PRIMARY KEY (writer, seq)
   );
   CREATE INDEX record_checkpoints_by_time ON record_checkpoints (at);`,
  // Calls of sessions recorded and chained in one statement a batch (decisions/postgres-log.ts): as
  // tollgate_record_session_calls, and each call written gets this node's next record entry, chained in the order
  // written from the head the node gives (p_seq, p_prev). The node gives each call's canonical form but for its
  // place (record/chain.ts, formWithBody): p_heads[i] up to the previous entry's hash, then the hash, the seq and
  // p_tail; the hash is the SHA-256 of that text's UTF-8, as the node would make it. Answers each written call's
  // entry seq and hash, so the node's head follows.
  `CREATE FUNCTION tollgate_record_session_calls_chained(p_locks TEXT[], p_agents TEXT[], p_sessions TEXT[], p_seen BIGINT[], p_rows JSONB[],
     p_writer TEXT, p_seq INTEGER, p_prev TEXT, p_heads TEXT[], p_tail TEXT, p_ats TEXT[], p_refs TEXT[])
   RETURNS TABLE (item INTEGER, rowid BIGINT, call_id TEXT, tool TEXT, arguments TEXT, created_at TEXT, written BOOLEAN, entry_seq INTEGER, entry_hash TEXT)
   LANGUAGE plpgsql AS $$
   #variable_conflict use_column
   DECLARE
     v_key BIGINT;
     v_rowid BIGINT;
     v_seq INTEGER := p_seq;
     v_prev TEXT := p_prev;
     v_hash TEXT;
     i INTEGER;
   BEGIN
     FOR v_key IN SELECT DISTINCT hashtextextended(l, 0) AS k FROM unnest(p_locks) AS l ORDER BY k LOOP
       PERFORM pg_advisory_xact_lock(v_key);
     END LOOP;
     FOR i IN 1 .. coalesce(array_length(p_locks, 1), 0) LOOP
       RETURN QUERY SELECT i, d.rowid, d.call_id, d.tool, d.arguments, d.created_at, FALSE, NULL::INTEGER, NULL::TEXT FROM decisions d
         WHERE d.agent = p_agents[i] AND d.session = p_sessions[i] AND d.decision = 'allow' AND d.rowid > p_seen[i]
         ORDER BY d.created_at, d.rowid;
       IF NOT FOUND THEN
         v_rowid := nextval(pg_get_serial_sequence('decisions', 'rowid'));
         INSERT INTO decisions SELECT r.* FROM jsonb_populate_record(NULL::decisions, p_rows[i] || jsonb_build_object('rowid', v_rowid)) r;
         v_seq := v_seq + 1;
         v_hash := encode(sha256(convert_to(p_heads[i] || v_prev || '","seq":' || v_seq::text || p_tail, 'UTF8')), 'hex');
         INSERT INTO record_entries (writer, seq, kind, at, ref, body, prev, hash)
           VALUES (p_writer, v_seq, 'decision', p_ats[i], p_refs[i], '', v_prev, v_hash);
         v_prev := v_hash;
         RETURN QUERY SELECT i, v_rowid, NULL::TEXT, NULL::TEXT, NULL::TEXT, NULL::TEXT, TRUE, v_seq, v_hash;
       END IF;
     END LOOP;
   END $$;`,
  // Keys members hold themselves (docs/approver-keys.md), as SQLite keeps them (db.ts).
  `CREATE TABLE member_credentials (
     id TEXT COLLATE "C" PRIMARY KEY,
     member_id TEXT COLLATE "C" NOT NULL REFERENCES members(id),
     kind TEXT NOT NULL CHECK (kind IN ('passkey', 'device')),
     label TEXT,
     algorithm TEXT NOT NULL,
     public_key TEXT NOT NULL,
     cose_key TEXT,
     rp_id TEXT,
     counter BIGINT NOT NULL DEFAULT 0,
     created_at TEXT COLLATE "C" NOT NULL,
     revoked_at TEXT COLLATE "C"
   );
   CREATE INDEX member_credentials_by_member ON member_credentials (member_id);
   CREATE TRIGGER member_credentials_changed AFTER INSERT OR UPDATE ON member_credentials
     FOR EACH STATEMENT EXECUTE FUNCTION tollgate_bump_generation('auth_generation');
   ALTER TABLE approvals ADD COLUMN proof TEXT;`,
  // A quorum and each member's vote, as SQLite keeps them (db.ts); nodes may declare language revision 4.
  `ALTER TABLE approvals ADD COLUMN quorum INTEGER NOT NULL DEFAULT 1 CHECK (quorum BETWEEN 1 AND 32);
   CREATE TABLE approval_votes (
     approval_id TEXT NOT NULL REFERENCES approvals(id),
     member_id TEXT COLLATE "C" NOT NULL,
     decision TEXT NOT NULL CHECK (decision IN ('approved', 'denied')),
     decided_at TEXT COLLATE "C" NOT NULL,
     reason TEXT,
     signature TEXT NOT NULL,
     signed_content TEXT NOT NULL,
     proof TEXT,
     PRIMARY KEY (approval_id, member_id)
   );
   ALTER TABLE gateways DROP CONSTRAINT gateways_language_revision_check;
   ALTER TABLE gateways ADD CONSTRAINT gateways_language_revision_check CHECK (language_revision BETWEEN 1 AND 4);`,
  // Webhook subscriptions, their outbox and attempts (docs/webhooks.md), as SQLite keeps them (db.ts).
  `CREATE TABLE webhook_subscriptions (
     id TEXT COLLATE "C" PRIMARY KEY,
     url TEXT NOT NULL,
     events TEXT NOT NULL,
     filters TEXT NOT NULL,
     include_arguments INTEGER NOT NULL DEFAULT 0,
     format TEXT NOT NULL CHECK (format IN ('standard', 'slack')),
     secret TEXT NOT NULL,
     created_at TEXT COLLATE "C" NOT NULL,
     created_by TEXT NOT NULL,
     removed_at TEXT COLLATE "C"
   );
   CREATE TABLE webhook_outbox (
     id TEXT COLLATE "C" PRIMARY KEY,
     subscription_id TEXT COLLATE "C" NOT NULL REFERENCES webhook_subscriptions(id),
     event_key TEXT COLLATE "C" NOT NULL,
     type TEXT NOT NULL,
     body TEXT NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_at TEXT COLLATE "C" NOT NULL,
     leased_until TEXT COLLATE "C",
     leased_by TEXT,
     created_at TEXT COLLATE "C" NOT NULL,
     UNIQUE (subscription_id, event_key)
   );
   CREATE INDEX webhook_outbox_due ON webhook_outbox (next_at) WHERE status = 'pending';
   CREATE TABLE webhook_attempts (
     seq BIGSERIAL PRIMARY KEY,
     outbox_id TEXT COLLATE "C" NOT NULL REFERENCES webhook_outbox(id),
     subscription_id TEXT COLLATE "C" NOT NULL,
     attempt INTEGER NOT NULL,
     node TEXT NOT NULL,
     outcome TEXT NOT NULL CHECK (outcome IN ('delivered', 'failed')),
     http_status INTEGER,
     latency_ms INTEGER NOT NULL,
     error TEXT,
     excerpt TEXT,
     at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX webhook_attempts_by_subscription ON webhook_attempts (subscription_id, at, seq);`,
  // Each approval transition until the webhook fan-out has turned it into outbox rows, and the cursor of the
  // every-deny fan-out over the denied calls, as SQLite keeps them (db.ts).
  `CREATE TABLE approval_transitions (
     event_key TEXT COLLATE "C" PRIMARY KEY,
     approval_id TEXT COLLATE "C" NOT NULL,
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'claimed')),
     at TEXT COLLATE "C" NOT NULL
   );
   CREATE TABLE webhook_cursors (
     name TEXT COLLATE "C" PRIMARY KEY,
     position BIGINT NOT NULL
   );
   CREATE INDEX decisions_denied ON decisions (rowid) WHERE decision = 'deny';`,
  // Who made each document version run, as SQLite keeps it (db.ts; state/activations/model.ts).
  `CREATE TABLE document_activations (
     seq BIGSERIAL PRIMARY KEY,
     document TEXT COLLATE "C" NOT NULL,
     sequence INTEGER NOT NULL,
     member_id TEXT COLLATE "C" NOT NULL,
     member_name TEXT NOT NULL,
     activated_at TEXT COLLATE "C" NOT NULL
   );
   CREATE INDEX document_activations_by_document ON document_activations (document, seq);`,
  // Trials scoped and bounded (docs/review.md, "Trials on live calls"): every differing call is kept, now with its
  // arguments' digest (never the values); rows kept before have none.
  `ALTER TABLE trial_differences ADD COLUMN arguments_digest TEXT;`,
  // A session's calls past the rowid a node holds, found by a seek (decisions/postgres-log.ts reads them on every call
  // of a session, and the session-calls function again under the lock): decisions_by_session orders a session's
  // entries by time, so each read walked all of them, as SQLite's did before its own index of (agent, session, rowid).
  `CREATE INDEX decisions_by_session_row ON decisions (agent, session, rowid) WHERE session IS NOT NULL;`,
];

/** The state's sequence, as the one migration ledger names it (@tollgate/store's applyMigrations). */
export const STATE_MIGRATIONS: MigrationSequence = { name: 'state', steps: POSTGRES_STATE_MIGRATIONS };

/**
 * Applies the state steps not applied yet (or `steps` in their place, for a test), in order, with the one runner
 * and ledger the document store's steps use; answers the step numbers applied.
 *
 * @example
 * await migratePostgres(pool, POSTGRES_STATE_MIGRATIONS); // { applied: [1, 2, 3, 4, 5, 6, 7] } on a new schema
 */
export async function migratePostgres(pool: pg.Pool, steps: readonly string[]): Promise<{ applied: number[] }> {
  const client = await pool.connect();
  try {
    return { applied: await applyMigrations(client, { name: STATE_MIGRATIONS.name, steps }) };
  } finally {
    client.release();
  }
}

/** The highest state step applied to the pool's schema; 0 when none is. */
export function schemaVersionOf(pool: pg.Pool): Promise<number> {
  return appliedVersion(pool, STATE_MIGRATIONS.name);
}
