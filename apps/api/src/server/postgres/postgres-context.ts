// A node on PostgreSQL (docs/deploy.md, "Several nodes on PostgreSQL"): documents with every version and the
// server's state in one database that every node shares, on one connection pool. What another node writes
// reaches this one three ways: the document store's change generation, read at most once per turn of the event
// loop before the gate trusts its loaded agents or a status is read (so an activation decides on every node at
// the next call, and a person's read sees it); the store's notices, which move the same generation, forget what
// this node read of the state another node wrote (statuses, trials, shadows) and reach the console's streams; and
// the state's counters, which the state store reads the same way.

import { mkdirSync } from 'node:fs';
import { PostgresDocumentStore } from '@tollgate/store';
import { assembleContext, type NodeRegistration } from '../assemble-context.ts';
import type { AppContext } from '../context.ts';
import { EventHub } from '../event-hub.ts';
import { LIFECYCLE_KEY, lifecycleOf } from '../rulesets/lifecycle.ts';
import { SHADOWS_KEY } from '../shadows/rule-shadows.ts';
import { STATE_GENERATIONS } from '../state/generations.ts';
import type { CustodialKeys } from '../state/members/custodial-keys.ts';
import { TurnGenerations, type TurnRead } from '../state/postgres-query.ts';
import { PostgresStateStore } from '../state/postgres-state.ts';
import { versionsInUse } from '../versions-in-use.ts';
import { relayEvents } from './cluster-events.ts';
import { boundedPool, type PoolBounds, poolBoundsFrom } from './pool-bounds.ts';
import { assertSchemaCurrent } from './schema.ts';

/** The state keys of trials, one a document (PolicyTrials in @tollgate/store). */
const TRIALS_PREFIX = 'trials/';

export interface PostgresContextOptions {
  now?: () => Date;
  /** Register as a deciding node that decides up to this language revision (docs/deploy.md). */
  node?: NodeRegistration;
  /** Where the demo's keys file goes; nothing else is kept on disk. */
  dataDir: string;
  /** The pool's size and timeouts (pool-bounds.ts); the environment's over the defaults unless given. */
  bounds?: PoolBounds;
  /** The members' custodial keys, sealed with the operator's secret (member-key-secret.ts): the same on every node. */
  custodial: CustodialKeys;
}

/**
 * Opens a workspace on the database at `url`: refused when the schema is not the one this Tollgate knows
 * (SchemaMismatch) or the database does not answer.
 *
 * @example
 * const ctx = await openPostgresContext('postgres://tollgate@db/tollgate', { dataDir: '.tollgate-data', custodial });
 */
export async function openPostgresContext(url: string, options: PostgresContextOptions): Promise<AppContext> {
  // Every client guarded and bounded: a connection that dies or stalls fails its request, never the process.
  const pool = boundedPool(url, options.bounds ?? poolBoundsFrom(process.env));
  const opened: (() => Promise<void>)[] = [() => pool.end()];
  const closeOpened = async () => {
    for (const close of opened.reverse()) await close().catch(() => {});
  };
  try {
    await assertSchemaCurrent(pool);
    const events = new EventHub();
    const documentChanges = { generation: 0 };
    // What this node keeps of the document store's state values, forgotten when another node writes them.
    let assembled: AppContext | undefined;
    const forgetState = (keys?: string[]) => {
      const all = keys === undefined;
      if (all || keys.includes(LIFECYCLE_KEY)) {
        lifecycleOf(store).forget();
        documentChanges.generation++;
      }
      if (all || keys.includes(SHADOWS_KEY)) assembled?.shadows.forget();
      if (all) assembled?.trials.forget();
      for (const key of keys ?? []) if (key.startsWith(TRIALS_PREFIX)) assembled?.trials.forget(key.slice(TRIALS_PREFIX.length));
    };
    const store = await PostgresDocumentStore.open({
      pool,
      versionsInUse,
      // Another node's write: what is derived from documents is read again, and the console hears of it.
      onChange: (ids) => {
        documentChanges.generation++;
        for (const id of ids) {
          void store.get(id).then(
            (v) => {
              if (v) events.deliver({ type: 'document', id, sequence: v.sequence });
            },
            () => {},
          );
        }
      },
      onStateChange: forgetState,
      onWrite: (write) => {
        if (write.kind === 'document' || write.key === LIFECYCLE_KEY) documentChanges.generation++;
      },
    });
    opened.push(() => store.close());
    // One statement a turn reads every counter the node checks: keys and members, authorizations, documents.
    const generations = new TurnGenerations(pool, { ...STATE_GENERATIONS, documents: 'SELECT generation FROM document_changes' });
    const state = await PostgresStateStore.open(pool, options.custodial, generations);
    opened.push(() => state.close());
    const fresh = freshness(generations.counter('documents'), documentChanges, () => forgetState());
    // Every read of a status asks first, so a person's read on this node sees another node's change (docs/deploy.md).
    lifecycleOf(store).fresh = fresh;
    const stopRelay = await relayEvents(pool, events);
    opened.push(stopRelay);
    const ctx = await assembleContext({
      dataDir: options.dataDir,
      store,
      state,
      events,
      documentChanges,
      now: options.now,
      node: options.node,
      documentsFresh: fresh,
      close: async () => {
        await stopRelay();
        await pool.end();
      },
    });
    assembled = ctx;
    mkdirSync(options.dataDir, { recursive: true });
    return ctx;
  } catch (err) {
    await closeOpened();
    throw err;
  }
}

/**
 * Reads the store's change generation (with the state's counters, at most once per turn of the event loop: every
 * request handled in a turn arrived before it began, so none was sent after a change it misses) and moves
 * documentChanges when another node wrote: its notice may still be on its way. What the node keeps of the state
 * (statuses, trials, shadows) is forgotten then too, as another node may have written it.
 */
function freshness(generation: TurnRead, documentChanges: { generation: number }, forgetState: () => void): () => Promise<void> {
  let seen = -1;
  return async () => {
    const now = await generation.read();
    if (now === seen) return;
    if (seen !== -1) documentChanges.generation++;
    forgetState();
    seen = now;
  };
}
