// What every route may use: the data folder's document store, its database, the edit seam and trials.
import { join } from 'node:path';
import { documentKindOf } from '@tollgate/engine';
import { EditSeam, engineValidators, FolderDocumentStore, loadProblems, PolicyTrials } from '@tollgate/store';
import { type Db, openDatabase } from './state/db.ts';

export interface AppContext {
  dataDir: string;
  db: Db;
  store: FolderDocumentStore;
  seam: EditSeam;
  trials: PolicyTrials;
  now(): Date;
  /** Live updates for the console (server-sent events). */
  events: EventHub;
  close(): Promise<void>;
}

export type ServerEvent = { type: 'approval'; id: string; status: string } | { type: 'document'; id: string; sequence: number };

/** A tiny publish/subscribe for server-sent events. */
export class EventHub {
  private readonly listeners = new Set<(e: ServerEvent) => void>();
  publish(event: ServerEvent): void {
    for (const listener of this.listeners) listener(event);
  }
  subscribe(listener: (e: ServerEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Opens a data folder: `documents/` (the folder store) and `tollgate.db`. */
export async function openContext(dataDir: string, options: { watch?: boolean; now?: () => Date } = {}): Promise<AppContext> {
  const events = new EventHub();
  const store = await FolderDocumentStore.open(join(dataDir, 'documents'), {
    validate: loadProblems,
    watch: options.watch ?? true,
    onChange: (ids) => {
      for (const id of ids) {
        void store.get(id).then((v) => {
          if (v) events.publish({ type: 'document', id, sequence: v.sequence });
        });
      }
    },
  });
  const db = openDatabase(join(dataDir, 'tollgate.db'));
  const seam = new EditSeam({ store, kindOf: documentKindOf, validators: engineValidators() });
  return {
    dataDir,
    db,
    store,
    seam,
    trials: new PolicyTrials(store),
    now: options.now ?? (() => new Date()),
    events,
    async close() {
      await store.close();
      db.close();
    },
  };
}
