// MemoryDocumentStore: everything in memory, for tests and for a process that does not restart.

import { byteLength } from './digest.ts';
import { checkExport, type DocumentExport, type DocumentHistoryTransfer, exportOf } from './document-export.ts';
import { idProblem } from './document-id.ts';
import {
  checkPrecondition,
  type DocumentIndex,
  emptyIndex,
  planActivate,
  planPrune,
  planRevert,
  planSave,
  revertTarget,
} from './document-index.ts';
import {
  type DocumentSave,
  type DocumentStore,
  type DocumentVersion,
  type Precondition,
  type StateUpdateOptions,
  type StoredDocument,
  StoreError,
  type StoreProblem,
  type StoreWrite,
  type VersionsInUse,
  type WriteOptions,
} from './types.ts';

export interface MemoryStoreOptions {
  maxDocumentBytes?: number;
  maxVersionsPerDocument?: number;
  /** The clock (tests pass a fixed one). */
  now?: () => Date;
  /** Called after each write the store made (what is derived from documents can be dropped then). */
  onWrite?: (write: StoreWrite) => void;
  /** Versions something outside the store uses: never pruned (docs/store.md, "Retention"). */
  versionsInUse?: VersionsInUse;
}

export const DEFAULT_MAX_DOCUMENT_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_VERSIONS = 100;

/**
 * A document store in memory.
 *
 * @example
 * const store = new MemoryDocumentStore();
 * await store.save({ id: 'settings.yaml', text: 'approval_ttl_seconds: 3600\n', author: { kind: 'person', label: 'ana' }, reason: 'shorter' });
 */
export class MemoryDocumentStore implements DocumentStore, DocumentHistoryTransfer {
  readonly maxDocumentBytes: number;
  private readonly maxVersions: number;
  private readonly now: () => Date;
  private readonly indexes = new Map<string, DocumentIndex>();
  private readonly texts = new Map<string, string>();
  private readonly state = new Map<string, string>();
  private readonly onWrite: ((write: StoreWrite) => void) | undefined;
  private readonly versionsInUse: VersionsInUse | undefined;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    this.maxVersions = options.maxVersionsPerDocument ?? DEFAULT_MAX_VERSIONS;
    this.now = options.now ?? (() => new Date());
    this.onWrite = options.onWrite;
    this.versionsInUse = options.versionsInUse;
  }

  async list(): Promise<string[]> {
    return [...this.indexes.keys()].sort();
  }

  async get(id: string): Promise<StoredDocument | undefined> {
    const index = this.indexes.get(id);
    return index?.running == null ? undefined : this.getVersion(id, index.running);
  }

  async getVersion(id: string, sequence: number): Promise<StoredDocument | undefined> {
    const version = this.indexes.get(id)?.versions.find((v) => v.sequence === sequence);
    const text = this.texts.get(`${id}\n${sequence}`);
    return version && text !== undefined ? { ...structuredClone(version), text } : undefined;
  }

  async history(id: string): Promise<DocumentVersion[]> {
    // Copies: what a caller changes is never what is stored.
    return structuredClone(this.indexes.get(id)?.versions ?? []);
  }

  async save(save: DocumentSave): Promise<DocumentVersion> {
    checkSave(save, this.maxDocumentBytes);
    const before = this.indexes.get(save.id) ?? emptyIndex();
    const inUse = before.versions.length >= this.maxVersions ? await inUseOf(this.versionsInUse, save.id, this) : new Set<number>();
    const { index, version } = planSave(this.indexes.get(save.id) ?? emptyIndex(), save, this.now());
    this.texts.set(`${save.id}\n${version.sequence}`, save.text);
    const pruned = planPrune(index, this.maxVersions, inUse);
    for (const s of pruned.dropped) this.texts.delete(`${save.id}\n${s}`);
    this.indexes.set(save.id, pruned.index);
    this.onWrite?.({ kind: 'document', id: save.id });
    return structuredClone(version);
  }

  async activate(id: string, sequence: number, options: WriteOptions = {}): Promise<DocumentVersion> {
    const { index, version } = planActivate(this.required(id), id, sequence, options.ifMatch);
    this.indexes.set(id, index);
    this.onWrite?.({ kind: 'document', id });
    return structuredClone(version);
  }

  async revert(id: string, options: WriteOptions = {}): Promise<DocumentVersion> {
    const { index, version } = planRevert(this.required(id), id, options.ifMatch);
    this.indexes.set(id, index);
    this.onWrite?.({ kind: 'document', id });
    return structuredClone(version);
  }

  async revertTarget(id: string): Promise<number | undefined> {
    const index = this.indexes.get(id);
    return index === undefined ? undefined : revertTarget(index);
  }

  async exportDocument(id: string): Promise<DocumentExport> {
    const index = this.required(id);
    return exportOf(id, index, (v) => this.texts.get(`${id}\n${v.sequence}`));
  }

  async importDocument(id: string, exported: DocumentExport): Promise<void> {
    const problem = idProblem(id);
    if (problem) throw new StoreError('invalid_id', `${JSON.stringify(id)}: ${problem}`);
    checkExport(id, exported);
    if (this.indexes.has(id))
      throw new StoreError('conflict', `${id} already has versions; an import writes only a document that has none`);
    for (const v of exported.index.versions) this.texts.set(`${id}\n${v.sequence}`, exported.texts[v.sequence] as string);
    this.indexes.set(id, structuredClone(exported.index));
    this.onWrite?.({ kind: 'document', id });
  }

  problems(): StoreProblem[] {
    return [];
  }

  async readState(key: string): Promise<unknown> {
    const text = this.state.get(key);
    return text === undefined ? undefined : JSON.parse(text);
  }

  async writeState(key: string, value: unknown, options: { ifMatch?: Precondition } = {}): Promise<void> {
    if (options.ifMatch) checkPrecondition(this.indexes.get(options.ifMatch.id), options.ifMatch.id, options.ifMatch.newest);
    this.state.set(key, JSON.stringify(value));
    this.onWrite?.({ kind: 'state', key });
  }

  async updateState(key: string, update: (value: unknown) => unknown, options: StateUpdateOptions = {}): Promise<unknown> {
    if (options.ifMatch) checkPrecondition(this.indexes.get(options.ifMatch.id), options.ifMatch.id, options.ifMatch.newest);
    const text = this.state.get(key);
    const value = update(text === undefined ? undefined : JSON.parse(text));
    this.state.set(key, JSON.stringify(value));
    this.onWrite?.({ kind: 'state', key });
    return JSON.parse(JSON.stringify(value));
  }

  async close(): Promise<void> {}

  private required(id: string): DocumentIndex {
    const problem = idProblem(id);
    if (problem) throw new StoreError('invalid_id', `${JSON.stringify(id)}: ${problem}`);
    const index = this.indexes.get(id);
    if (!index) throw new StoreError('not_found', `no document ${id}`);
    return index;
  }
}

/** The checks every store makes before it writes: a good id, text within the size limit. */
export function checkSave(save: DocumentSave, maxBytes: number): void {
  const problem = idProblem(save.id);
  if (problem) throw new StoreError('invalid_id', `${JSON.stringify(save.id)}: ${problem}`);
  if (typeof save.text !== 'string') throw new StoreError('invalid_save', 'a version is text');
  const bytes = byteLength(save.text);
  if (bytes > maxBytes) throw new StoreError('too_large', `${save.id} is ${bytes} bytes, more than the limit of ${maxBytes} bytes`);
}

/** The versions in use of one document, as a set (none without a hook). */
export async function inUseOf(hook: VersionsInUse | undefined, id: string, store: DocumentStore): Promise<Set<number>> {
  return hook ? new Set(await hook(id, store)) : new Set();
}
