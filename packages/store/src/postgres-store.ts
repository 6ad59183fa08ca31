// PostgresDocumentStore: documents and every version in PostgreSQL, shared by several gateway nodes. Every
// write is one transaction that locks the document's row, reads its index again under the lock and plans
// with the pure planners the other stores use (document-index.ts), so nodes racing give exactly what one
// process would. Each write bumps the change generation and is announced with NOTIFY (docs/store.md,
// "The PostgreSQL store").
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { checkExport, type DocumentExport, type DocumentHistoryTransfer, exportOf } from './document-export.ts';
import { idProblem } from './document-id.ts';
import { type DocumentIndex, planActivate, planPrune, planRevert, planSave, revertTarget } from './document-index.ts';
import { DEFAULT_LOCK_TIMEOUT_MS } from './lock.ts';
import { checkSave, DEFAULT_MAX_DOCUMENT_BYTES, DEFAULT_MAX_VERSIONS, inUseOf, type MemoryStoreOptions } from './memory-store.ts';
import { EMPTY_INDEX, lockIndex, lockPrecondition, parseIndex, writeIndex } from './postgres-index-rows.ts';
import { ChangeListener } from './postgres-listen.ts';
import { DOCUMENTS_CHANNEL, schemaChannel } from './postgres-schema.ts';
import { type ChangeNotice, exactInteger, inWriteTransaction, recordChange } from './postgres-transaction.ts';
import {
  type DocumentSave,
  type DocumentStore,
  type DocumentVersion,
  type Precondition,
  type StateUpdateOptions,
  type StoredDocument,
  StoreError,
  type StoreProblem,
  type WriteOptions,
} from './types.ts';

export interface PostgresStoreOptions extends MemoryStoreOptions {
  /** A pool the caller owns (close leaves it open). */
  pool?: pg.Pool;
  /** Without a pool: the store opens one to this server, and ends it on close. */
  connectionString?: string;
  /** Hold a LISTEN connection and tell onChange of other nodes' writes (on when onChange is given). */
  listen?: boolean;
  /** Called with the ids another node wrote, once committed; with every id after the LISTEN connection was lost. */
  onChange?: (ids: string[]) => void;
  /** Called with the state keys another node wrote, once committed; with none (every key) after the LISTEN connection was lost. */
  onStateChange?: (keys?: string[]) => void;
  /** How long a write waits for another node's lock before it is refused as `locked` (3 s unless set). */
  lockTimeoutMs?: number;
}

/**
 * A document store in PostgreSQL. The tables come from POSTGRES_DOCUMENT_MIGRATIONS, applied beforehand.
 *
 * @example
 * const store = await PostgresDocumentStore.open({ connectionString: process.env.DATABASE_URL, onChange: (ids) => drop(ids) });
 */
export class PostgresDocumentStore implements DocumentStore, DocumentHistoryTransfer {
  readonly maxDocumentBytes: number;
  private readonly maxVersions: number;
  private readonly options: PostgresStoreOptions;
  private readonly pool: pg.Pool;
  private readonly ownPool: boolean;
  private readonly now: () => Date;
  private readonly waitMs: number;
  /** Marks this store's own notices, which onChange is not told of (onWrite was). */
  private readonly origin = randomUUID();
  private listener: ChangeListener | undefined;

  private constructor(pool: pg.Pool, ownPool: boolean, options: PostgresStoreOptions) {
    this.pool = pool;
    this.ownPool = ownPool;
    this.options = options;
    this.maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    this.maxVersions = options.maxVersionsPerDocument ?? DEFAULT_MAX_VERSIONS;
    this.now = options.now ?? (() => new Date());
    this.waitMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  }

  /** Opens the store on a pool (given, or made from `connectionString`), listening when asked; refused when the server does not answer. */
  static async open(options: PostgresStoreOptions): Promise<PostgresDocumentStore> {
    const { pool: given, connectionString } = options;
    if (!given && connectionString === undefined) throw new TypeError('PostgresDocumentStore.open needs a pool or a connectionString');
    // The driver loads only when the store makes a pool: every importer of this package (the CLI's
    // commands) would otherwise pay for it at start (docs/performance.md, "The cli suite").
    const pool = given ?? new (await import('pg')).default.Pool({ connectionString });
    // A connection that drops emits 'error': an idle one on the pool, a checked-out one on its client. Without a
    // listener either ends the process; the query in flight fails, and its caller is told.
    if (!given) {
      pool.on('error', () => {});
      pool.on('connect', (client) => client.on('error', () => {}));
    }
    const store = new PostgresDocumentStore(pool, !given, options);
    try {
      await pool.query('SELECT 1 FROM document_changes').catch((err: { code?: string; message?: string }) => {
        // undefined_table: the migrations were not applied to this database (or search path).
        if (err.code !== '42P01') throw err;
        throw new Error(`the document tables are missing (${err.message}): apply POSTGRES_DOCUMENT_MIGRATIONS first (tollgate migrate)`);
      });
      if (options.listen ?? (options.onChange !== undefined || options.onStateChange !== undefined)) await store.startListening();
    } catch (err) {
      await store.close();
      throw err;
    }
    return store;
  }

  async list(): Promise<string[]> {
    const result = await this.pool.query<{ id: string }>('SELECT id FROM documents');
    // Sorted here, by UTF-16 code units as the other stores sort, not by the database's collation.
    return result.rows.map((r) => r.id).sort();
  }

  async get(id: string): Promise<StoredDocument | undefined> {
    if (idProblem(id)) return undefined;
    // One statement, so the index and the text are of one moment.
    const result = await this.pool.query<{ index_json: string; text: Buffer | null }>(
      `SELECT d.index_json, v.text FROM documents d
       LEFT JOIN document_versions v ON v.id = d.id AND v.sequence = d.running
       WHERE d.id = $1`,
      [id],
    );
    const row = result.rows[0];
    if (!row) return undefined;
    const index = parseIndex(id, row.index_json);
    return withText(index, index.running, row.text);
  }

  async getVersion(id: string, sequence: number): Promise<StoredDocument | undefined> {
    if (idProblem(id) || !Number.isInteger(sequence) || sequence < 1 || sequence > 2 ** 31 - 1) return undefined;
    const result = await this.pool.query<{ index_json: string; text: Buffer | null }>(
      `SELECT d.index_json, v.text FROM documents d
       LEFT JOIN document_versions v ON v.id = d.id AND v.sequence = $2
       WHERE d.id = $1`,
      [id, sequence],
    );
    const row = result.rows[0];
    return row ? withText(parseIndex(id, row.index_json), sequence, row.text) : undefined;
  }

  async history(id: string): Promise<DocumentVersion[]> {
    return (await this.readIndex(id))?.versions ?? [];
  }

  async revertTarget(id: string): Promise<number | undefined> {
    const index = await this.readIndex(id);
    return index === undefined ? undefined : revertTarget(index);
  }

  async save(save: DocumentSave): Promise<DocumentVersion> {
    checkSave(save, this.maxDocumentBytes);
    // The hook is asked before the lock (it may read the store), only when this save would prune
    // (docs/store.md, "Retention"); a save that finds more versions under the lock than read here leaves
    // pruning to the next save rather than prune without it.
    const before = await this.readIndex(save.id);
    const asked = (before?.versions.length ?? 0) >= this.maxVersions;
    const inUse = asked ? await inUseOf(this.options.versionsInUse, save.id, this) : new Set<number>();
    const version = await inWriteTransaction(this.pool, this.waitMs, async (client) => {
      await client.query('INSERT INTO documents (id, index_json) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [save.id, EMPTY_INDEX]);
      const index = await lockIndex(client, save.id);
      const planned = planSave(index, save, this.now());
      await client.query('INSERT INTO document_versions (id, sequence, text) VALUES ($1, $2, $3)', [
        save.id,
        planned.version.sequence,
        Buffer.from(save.text, 'utf8'),
      ]);
      const pruned = asked ? planPrune(planned.index, this.maxVersions, inUse) : { index: planned.index, dropped: [] };
      if (pruned.dropped.length > 0) {
        await client.query('DELETE FROM document_versions WHERE id = $1 AND sequence = ANY($2::integer[])', [save.id, pruned.dropped]);
      }
      await writeIndex(client, save.id, pruned.index);
      await recordChange(client, { id: save.id, sequence: planned.version.sequence, origin: this.origin });
      return planned.version;
    });
    this.options.onWrite?.({ kind: 'document', id: save.id });
    return version;
  }

  async activate(id: string, sequence: number, options: WriteOptions = {}): Promise<DocumentVersion> {
    return this.changeRunning(id, (index) => planActivate(index, id, sequence, options.ifMatch));
  }

  async revert(id: string, options: WriteOptions = {}): Promise<DocumentVersion> {
    return this.changeRunning(id, (index) => planRevert(index, id, options.ifMatch));
  }

  async exportDocument(id: string): Promise<DocumentExport> {
    return exportDocumentWith(this.pool, id);
  }

  async importDocument(id: string, exported: DocumentExport): Promise<void> {
    await inWriteTransaction(this.pool, this.waitMs, (client) => importDocumentWith(client, id, exported, this.origin));
    this.options.onWrite?.({ kind: 'document', id });
  }

  problems(): StoreProblem[] {
    return [];
  }

  async readState(key: string): Promise<unknown> {
    if (idProblem(key)) return undefined;
    const result = await this.pool.query<{ value: string | null }>('SELECT value FROM document_state WHERE key = $1', [key]);
    return parseState(result.rows[0]?.value);
  }

  async writeState(key: string, value: unknown, options: { ifMatch?: Precondition } = {}): Promise<void> {
    checkKey(key);
    const { ifMatch } = options;
    await inWriteTransaction(this.pool, this.waitMs, async (client) => {
      if (ifMatch) await lockPrecondition(client, ifMatch);
      await client.query('INSERT INTO document_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value', [
        key,
        stateText(value),
      ]);
      await recordChange(client, { key, origin: this.origin });
    });
    this.options.onWrite?.({ kind: 'state', key });
  }

  async updateState(key: string, update: (value: unknown) => unknown, options: StateUpdateOptions = {}): Promise<unknown> {
    checkKey(key);
    const { ifMatch } = options;
    const text = await inWriteTransaction(this.pool, options.waitMs ?? this.waitMs, async (client) => {
      // The document's row first, then the value's, as writeState locks them: a save cannot slip in between.
      if (ifMatch) await lockPrecondition(client, ifMatch);
      await client.query('INSERT INTO document_state (key, value) VALUES ($1, NULL) ON CONFLICT (key) DO NOTHING', [key]);
      const current = await client.query<{ value: string | null }>('SELECT value FROM document_state WHERE key = $1 FOR UPDATE', [key]);
      const next = stateText(update(parseState(current.rows[0]?.value)));
      await client.query('UPDATE document_state SET value = $2 WHERE key = $1', [key, next]);
      await recordChange(client, { key, origin: this.origin });
      return next;
    });
    this.options.onWrite?.({ kind: 'state', key });
    return parseState(text);
  }

  /** The change generation: it moves with every write any node commits, so a node can tell cheaply whether to read again. */
  async changeGeneration(): Promise<number> {
    const result = await this.pool.query<{ generation: string }>('SELECT generation FROM document_changes');
    return exactInteger(result.rows[0]?.generation, 'the change generation');
  }

  /** The backend pid of the LISTEN connection, undefined when not listening (a test ends it to show the reconnect). */
  get listenerProcessId(): number | undefined {
    return this.listener?.processId;
  }

  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
    if (this.ownPool) await this.pool.end();
  }

  private async readIndex(id: string): Promise<DocumentIndex | undefined> {
    if (idProblem(id)) return undefined;
    const result = await this.pool.query<{ index_json: string }>('SELECT index_json FROM documents WHERE id = $1', [id]);
    const row = result.rows[0];
    return row ? parseIndex(id, row.index_json) : undefined;
  }

  /** Activate and revert: the index is read again under the row's lock and planned; the texts are not touched. */
  private async changeRunning(
    id: string,
    plan: (index: DocumentIndex) => { index: DocumentIndex; version: DocumentVersion },
  ): Promise<DocumentVersion> {
    checkId(id);
    const version = await inWriteTransaction(this.pool, this.waitMs, async (client) => {
      const index = await lockIndex(client, id);
      if (index.next === 1) throw new StoreError('not_found', `no document ${id}`);
      const planned = plan(index);
      await writeIndex(client, id, planned.index);
      await recordChange(client, { id, sequence: planned.index.running, origin: this.origin });
      return planned.version;
    });
    this.options.onWrite?.({ kind: 'document', id });
    return version;
  }

  private async startListening(): Promise<void> {
    const listener = new ChangeListener({
      channel: await schemaChannel(this.pool, DOCUMENTS_CHANNEL),
      connect: () => this.pool.connect(),
      onNotice: (payload) => this.heard(payload),
      onReconnect: async (client) => {
        // Notices sent while no connection listened are lost: every document and state value may have changed.
        this.options.onStateChange?.();
        const result = await client.query<{ id: string }>('SELECT id FROM documents');
        const ids = result.rows.map((r) => r.id).sort();
        if (ids.length > 0) this.options.onChange?.(ids);
      },
    });
    await listener.start();
    this.listener = listener;
  }

  private heard(payload: string): void {
    let notice: Partial<ChangeNotice & { id: unknown }>;
    try {
      notice = JSON.parse(payload);
    } catch {
      return;
    }
    if (notice.origin === this.origin) return;
    const { key } = notice as { key?: unknown };
    if (typeof key === 'string') this.options.onStateChange?.([key]);
    else if (typeof notice.id === 'string') this.options.onChange?.([notice.id]);
  }
}

/** A document's history read with the caller's pool or client (`tollgate export` reads every one in one snapshot). */
export async function exportDocumentWith(db: pg.Pool | pg.ClientBase, id: string): Promise<DocumentExport> {
  checkId(id);
  // One statement, so the index and the texts are of one moment.
  const result = await db.query<{ index_json: string; sequence: number | null; text: Buffer | null }>(
    `SELECT d.index_json, v.sequence, v.text FROM documents d
     LEFT JOIN document_versions v ON v.id = d.id
     WHERE d.id = $1`,
    [id],
  );
  const first = result.rows[0];
  const index = first ? parseIndex(id, first.index_json) : undefined;
  if (!index || index.versions.length === 0) throw new StoreError('not_found', `no document ${id}`);
  const texts = new Map(result.rows.map((r) => [r.sequence, r.text]));
  return exportOf(id, index, (version) => texts.get(version.sequence)?.toString('utf8'));
}

/**
 * Writes an exported history inside the caller's transaction (`tollgate import` writes every document in one),
 * as PostgresDocumentStore.importDocument does: refused as `conflict` when the id has versions, `damaged`
 * when the export does not hold together. The tables are POSTGRES_DOCUMENT_MIGRATIONS'.
 */
export async function importDocumentWith(client: pg.ClientBase, id: string, exported: DocumentExport, origin = 'import'): Promise<void> {
  checkId(id);
  checkExport(id, exported);
  await client.query('INSERT INTO documents (id, index_json) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [id, EMPTY_INDEX]);
  const index = await lockIndex(client, id);
  if (index.next !== 1 || index.versions.length > 0) {
    throw new StoreError('conflict', `${id} already has versions in this database; an import writes only a document that has none`);
  }
  for (const version of exported.index.versions) {
    await client.query('INSERT INTO document_versions (id, sequence, text) VALUES ($1, $2, $3)', [
      id,
      version.sequence,
      Buffer.from(exported.texts[version.sequence] as string, 'utf8'),
    ]);
  }
  await writeIndex(client, id, exported.index);
  await recordChange(client, { id, sequence: exported.index.running, origin });
}

function checkId(id: string): void {
  const problem = idProblem(id);
  if (problem) throw new StoreError('invalid_id', `${JSON.stringify(id)}: ${problem}`);
}

/** State keys are paths like ids, refused as the folder store refuses them, so state moves between stores. */
function checkKey(key: string): void {
  const problem = idProblem(key);
  if (problem) throw new StoreError('invalid_id', `state key ${JSON.stringify(key)}: ${problem}`);
}

function withText(index: DocumentIndex, sequence: number | null, text: Buffer | null): StoredDocument | undefined {
  const version = index.versions.find((v) => v.sequence === sequence);
  return version && text !== null ? { ...version, text: text.toString('utf8') } : undefined;
}

/** A value as stored: JSON text, or NULL for undefined (what JSON cannot say). */
function stateText(value: unknown): string | null {
  return JSON.stringify(value) ?? null;
}

function parseState(text: string | null | undefined): unknown {
  return text == null ? undefined : JSON.parse(text);
}
