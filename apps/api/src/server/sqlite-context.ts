// A context on a data folder (the embedded default): `documents/` in the folder store and the state in
// `tollgate.db` beside it, on one SQLite connection. postgres/postgres-context.ts opens the shared kind.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FolderDocumentStore, loadProblems } from '@tollgate/store';
import { assembleContext, type NodeRegistration } from './assemble-context.ts';
import type { AppContext } from './context.ts';
import { EventHub } from './event-hub.ts';
import { ignoreInGit } from './ignore-in-git.ts';
import { custodialKeysFor } from './member-key-secret.ts';
import { LIFECYCLE_KEY } from './rulesets/lifecycle.ts';
import { type Db, openDatabase } from './state/db.ts';
import type { CustodialKeys } from './state/members/custodial-keys.ts';
import { SqliteStateStore } from './state/sqlite-state.ts';
import { versionsInUse } from './versions-in-use.ts';

/** A context on a data folder with its SQLite database, which tests and the CLI may read directly. */
export interface SqliteAppContext extends AppContext {
  db: Db;
  state: SqliteStateStore;
  store: FolderDocumentStore;
}

/** Opens a data folder: `documents/` (the folder store) and `tollgate.db`. */
export async function openContext(
  dataDir: string,
  options: {
    watch?: boolean;
    now?: () => Date;
    lockTimeoutMs?: number;
    /** Register as a deciding node that decides up to this language revision (docs/deploy.md). */
    node?: NodeRegistration;
    /** The members' custodial keys; by default sealed with the secret the environment or the folder's own file gives. */
    custodial?: CustodialKeys;
  } = {},
): Promise<SqliteAppContext> {
  const events = new EventHub();
  const documentChanges = { generation: 0 };
  mkdirSync(dataDir, { recursive: true });
  ignoreInGit(dataDir);
  const store: FolderDocumentStore = await FolderDocumentStore.open(join(dataDir, 'documents'), {
    validate: loadProblems,
    watch: options.watch ?? true,
    versionsInUse,
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
    // The store calls this only once open has returned, so `store` is set (docs/store.md, "Startup").
    onChange: (ids) => {
      documentChanges.generation++;
      for (const id of ids) {
        void store.get(id).then((v) => {
          if (v) events.publish({ type: 'document', id, sequence: v.sequence });
        });
      }
    },
    // Statuses change what agents run, so a lifecycle write counts as a document change (trial counts do not).
    onWrite: (write) => {
      if (write.kind === 'document' || write.key === LIFECYCLE_KEY) documentChanges.generation++;
    },
  });
  const db = openDatabase(join(dataDir, 'tollgate.db'));
  const custodial = options.custodial ?? custodialKeysFor({ env: process.env, dataDir });
  let state: SqliteStateStore;
  try {
    state = new SqliteStateStore(db, custodial);
  } catch (err) {
    db.close();
    await store.close();
    throw err;
  }
  const ctx = await assembleContext({ dataDir, store, state, events, documentChanges, now: options.now, node: options.node });
  return { ...ctx, db, state, store };
}
