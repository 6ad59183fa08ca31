// FolderDocumentStore: working copies in a folder, every version in a state folder inside it
// (.tollgate/ unless stateRoot names another), written atomically under a lock that makes two
// processes on one host safe. A working copy edited by hand becomes a version authored `external`,
// or a rejected version that never runs when it does not load. The files, their checksums and what is
// done when one is damaged are in docs/store.md ("On disk", "Invariants").
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomic, writeFileOnce } from './atomic-file.ts';
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
import { FolderFiles } from './folder-files.ts';
import { FolderLayout } from './folder-layout.ts';
import { type FolderScan, scanFolder } from './folder-scan.ts';
import { FolderWatch } from './folder-watch.ts';
import { DEFAULT_LOCK_TIMEOUT_MS, FileLock } from './lock.ts';
import { checkSave, DEFAULT_MAX_DOCUMENT_BYTES, DEFAULT_MAX_VERSIONS, inUseOf } from './memory-store.ts';
import {
  encodeIndex,
  encodeVersionFile,
  type FolderIndex,
  type PendingMarker,
  safeReaddir,
  sha256,
  versionFileSequences,
} from './store-format.ts';
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

export interface FolderStoreOptions {
  /** Where versions are kept; `<folder>/.tollgate` unless given. */
  stateRoot?: string;
  /** A larger working copy is reported in problems and not read (4 MiB unless set). */
  maxDocumentBytes?: number;
  /** Oldest versions that are not in use are pruned past this many (100 unless set). */
  maxVersionsPerDocument?: number;
  /** Versions something outside the store uses (pins, agents, trials): never pruned. */
  versionsInUse?: VersionsInUse;
  /** How long a write waits for another process's lock before it is refused as `locked` (3 s unless set). */
  lockTimeoutMs?: number;
  /** Watch the folder and take in working copies edited by hand (on unless false). */
  watch?: boolean;
  debounceMs?: number;
  /** Whether a working copy loads: its problems, empty when it does. Without it, every text loads. */
  validate?: (id: string, text: string) => string[];
  /** Called after the folder was read again and some document gained a version; never before `open` has returned. */
  onChange?: (ids: string[]) => void;
  /** Called after each write through this store's methods (save, activate, revert, state). */
  onWrite?: (write: StoreWrite) => void;
  now?: () => Date;
}

/**
 * A document store in a folder.
 *
 * @example
 * const store = await FolderDocumentStore.open('documents');
 * const running = await store.get('policies/refunds.policy.json');
 */
export class FolderDocumentStore implements DocumentStore, DocumentHistoryTransfer {
  readonly root: string;
  readonly stateRoot: string;
  readonly maxDocumentBytes: number;
  private readonly maxVersions: number;
  private readonly options: FolderStoreOptions;
  private readonly lock: FileLock;
  private readonly now: () => Date;
  private readonly layout: FolderLayout;
  private readonly files: FolderFiles;
  private readonly watcher: FolderWatch;
  private opened = false;
  private unsent: string[] = [];
  private found: StoreProblem[] = [];

  private constructor(root: string, options: FolderStoreOptions) {
    this.root = resolve(root);
    this.stateRoot = resolve(options.stateRoot ?? join(this.root, '.tollgate'));
    this.maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    this.maxVersions = options.maxVersionsPerDocument ?? DEFAULT_MAX_VERSIONS;
    this.options = options;
    this.now = options.now ?? (() => new Date());
    this.lock = new FileLock(join(this.stateRoot, 'lock'), options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
    this.layout = new FolderLayout(this.root, this.stateRoot, this.now);
    this.files = new FolderFiles(this.layout);
    this.watcher = new FolderWatch(this.root, this.stateRoot, () => this.rescan(), options.debounceMs ?? 250);
  }
  /**
   * Opens a folder (creating it if needed), takes in its working copies, and starts watching. An index
   * that cannot be read is rebuilt from the version files; when it cannot be, open is refused with the
   * file named (`damaged`), before anything is written for that document.
   */
  static async open(root: string, options: FolderStoreOptions = {}): Promise<FolderDocumentStore> {
    mkdirSync(root, { recursive: true });
    const store = new FolderDocumentStore(root, options);
    mkdirSync(join(store.stateRoot, 'documents'), { recursive: true });
    // The state folder holds every version's text: never committed by a team that keeps the folder in git.
    if (!existsSync(join(store.stateRoot, '.gitignore'))) writeFileAtomic(join(store.stateRoot, '.gitignore'), '*\n');
    // Watching starts first, so a change made while the folder is read is queued, not lost.
    if (options.watch !== false) store.watcher.start();
    try {
      await store.scan(true);
    } catch (err) {
      await store.close();
      throw err;
    }
    store.opened = true;
    // onChange runs once the caller holds the store, never inside open.
    if (store.unsent.length > 0) setImmediate(() => store.notify([]));
    return store;
  }

  async list(): Promise<string[]> {
    const ids: string[] = [];
    for (const entry of safeReaddir(join(this.stateRoot, 'documents'))) {
      const read = this.files.readIndexAt(join(this.stateRoot, 'documents', entry));
      if (read.ok && read.value.versions.length > 0) ids.push(read.value.id);
    }
    return ids.sort();
  }

  async get(id: string): Promise<StoredDocument | undefined> {
    const index = this.files.readIndex(id);
    return index?.running == null ? undefined : this.getVersion(id, index.running);
  }

  /** A stored version with its text; undefined when there is none, or when its file is damaged (then reported in problems). */
  async getVersion(id: string, sequence: number): Promise<StoredDocument | undefined> {
    if (idProblem(id)) return undefined;
    const index = this.files.readIndex(id);
    const version = index?.versions.find((v) => v.sequence === sequence);
    if (!index || !version) return undefined;
    const file = this.files.verifiedVersion(index, version);
    return file.ok ? { ...version, text: file.value.text } : undefined;
  }

  async history(id: string): Promise<DocumentVersion[]> {
    if (idProblem(id)) return [];
    return [...(this.files.readIndex(id)?.versions ?? [])];
  }

  async save(save: DocumentSave): Promise<DocumentVersion> {
    checkSave(save, this.maxDocumentBytes);
    this.layout.checkNoLinkOut(save.id);
    const version = await this.lock.hold(() => this.saveLocked(save));
    this.options.onWrite?.({ kind: 'document', id: save.id });
    await this.prune(save.id);
    return version;
  }

  async activate(id: string, sequence: number, options: WriteOptions = {}): Promise<DocumentVersion> {
    const version = await this.lock.hold(() => {
      const index = this.files.requireIndex(id);
      const planned = planActivate(index, id, sequence, options.ifMatch);
      this.commit(id, index, { ...index, ...planned.index });
      return planned.version;
    });
    this.options.onWrite?.({ kind: 'document', id });
    return version;
  }

  async revertTarget(id: string): Promise<number | undefined> {
    if (idProblem(id)) return undefined;
    const index = this.files.readIndex(id);
    return index === undefined ? undefined : revertTarget(index);
  }

  async revert(id: string, options: WriteOptions = {}): Promise<DocumentVersion> {
    const version = await this.lock.hold(() => {
      const index = this.files.requireIndex(id);
      const planned = planRevert(index, id, options.ifMatch);
      this.commit(id, index, { ...index, ...planned.index });
      return planned.version;
    });
    this.options.onWrite?.({ kind: 'document', id });
    return version;
  }

  async exportDocument(id: string): Promise<DocumentExport> {
    const index = this.files.requireIndex(id);
    if (index.versions.length === 0) throw new StoreError('not_found', `no document ${id}`);
    return exportOf(id, index, (version) => {
      const file = this.files.verifiedVersion(index, version);
      if (!file.ok) throw this.files.damagedVersion(id, version.sequence, file);
      return file.value.text;
    });
  }

  /**
   * Writes an exported history as a save writes a version (docs/store.md, "Invariants"): each version file
   * once, then the index and the working copy under a pending marker, so a crash between them is finished or
   * taken in by the next read of the folder, as a save's is.
   */
  async importDocument(id: string, exported: DocumentExport): Promise<void> {
    const problem = idProblem(id);
    if (problem) throw new StoreError('invalid_id', `${JSON.stringify(id)}: ${problem}`);
    checkExport(id, exported);
    this.layout.checkNoLinkOut(id);
    await this.lock.hold(() => {
      const dir = this.layout.docDir(id);
      const read = this.files.readIndexAt(dir);
      if (!read.ok && !read.missing) throw this.files.damagedIndex(id, read.why);
      if ((read.ok && read.value.versions.length > 0) || versionFileSequences(dir).length > 0) {
        throw new StoreError('conflict', `${id} already has versions in this folder; an import writes only a document that has none`);
      }
      const files: Record<string, string> = {};
      for (const version of exported.index.versions) {
        const data = encodeVersionFile(version, exported.texts[version.sequence] as string);
        writeFileOnce(this.layout.versionPath(id, version.sequence), data);
        files[version.sequence] = sha256(data);
      }
      this.commit(id, emptyIndex(), { ...structuredClone(exported.index), id, files });
    });
    this.options.onWrite?.({ kind: 'document', id });
  }

  problems(): StoreProblem[] {
    const seen = new Set(this.found.map((p) => `${p.id}\n${p.code}\n${p.message}`));
    return [...this.found, ...[...this.files.damage.values()].filter((p) => !seen.has(`${p.id}\n${p.code}\n${p.message}`))];
  }

  async readState(key: string): Promise<unknown> {
    try {
      return JSON.parse(readFileSync(this.layout.statePath(key), 'utf8'));
    } catch {
      return undefined;
    }
  }

  async writeState(key: string, value: unknown, options: { ifMatch?: Precondition } = {}): Promise<void> {
    const path = this.layout.statePath(key);
    const { ifMatch } = options;
    await this.lock.hold(() => {
      if (ifMatch) checkPrecondition(this.files.readIndex(ifMatch.id), ifMatch.id, ifMatch.newest);
      writeFileAtomic(path, JSON.stringify(value));
    });
    this.options.onWrite?.({ kind: 'state', key });
  }

  async updateState(key: string, update: (value: unknown) => unknown, options: StateUpdateOptions = {}): Promise<unknown> {
    const path = this.layout.statePath(key);
    const { ifMatch } = options;
    const value = await this.lock.hold(() => {
      if (ifMatch) checkPrecondition(this.files.readIndex(ifMatch.id), ifMatch.id, ifMatch.newest);
      let current: unknown;
      try {
        current = JSON.parse(readFileSync(path, 'utf8'));
      } catch {
        current = undefined;
      }
      const next = update(current);
      writeFileAtomic(path, JSON.stringify(next));
      return next;
    }, options.waitMs);
    this.options.onWrite?.({ kind: 'state', key });
    return value;
  }

  async close(): Promise<void> {
    this.watcher.close();
  }

  /** Reads the folder again: new and hand-edited working copies become versions. Resolves to the ids that gained one. */
  async rescan(): Promise<string[]> {
    return this.scan(false);
  }

  private async scan(opening: boolean): Promise<string[]> {
    const changed = await this.lock.hold(() => {
      const scanned = scanFolder(this.scanning(), opening);
      this.found = scanned.problems;
      return scanned.changed;
    });
    this.watcher.sync();
    for (const id of changed) await this.prune(id);
    if (changed.length > 0) this.notify(changed);
    return changed;
  }

  private notify(ids: string[]): void {
    this.unsent.push(...ids);
    if (!this.opened || this.unsent.length === 0) return;
    const all = [...new Set(this.unsent)];
    this.unsent = [];
    this.options.onChange?.(all);
  }

  private saveLocked(save: DocumentSave): DocumentVersion {
    const before = this.files.indexForWrite(save.id, this.found);
    const planned = planSave(before, save, this.now());
    const after = this.files.storeVersion(save.id, before, planned.index, planned.version, save.text);
    this.commit(save.id, before, after);
    return planned.version;
  }

  /**
   * Drops the oldest versions past the limit that nothing uses (docs/store.md, "Retention"). The index is
   * written first, so a crash leaves orphan files (reported, moved aside by repair), never a missing one.
   * A busy lock leaves pruning to the next write: a stored version is never refused for it.
   */
  private async prune(id: string): Promise<void> {
    const index = this.files.readIndex(id);
    if (!index || index.versions.length <= this.maxVersions) return;
    const inUse = await inUseOf(this.options.versionsInUse, id, this);
    try {
      await this.lock.hold(() => {
        const current = this.files.readIndex(id);
        if (!current) return;
        const pruned = planPrune(current, this.maxVersions, inUse);
        if (pruned.dropped.length === 0) return;
        const files = { ...(current.files ?? {}) };
        for (const s of pruned.dropped) delete files[s];
        writeFileAtomic(this.layout.indexPath(id), encodeIndex({ ...pruned.index, id, files }));
        for (const s of pruned.dropped) rmSync(this.layout.versionPath(id, s), { force: true });
      });
    } catch (err) {
      if (!(err instanceof StoreError && err.code === 'locked')) throw err;
    }
  }

  /**
   * Writes the index, then the working copy when the running version changed. A pending marker spans the
   * two and records the working copy's digest before the rewrite: a crash between them leaves the marker,
   * and the next read of the folder finishes the write when the working copy still holds that text, or
   * takes it in as a hand edit when it does not.
   */
  private commit(id: string, before: DocumentIndex, after: FolderIndex): void {
    const running = after.versions.find((v) => v.sequence === after.running);
    const rewrite = running !== undefined && running.sequence !== before.running;
    let text: string | undefined;
    if (rewrite) {
      const file = this.files.verifiedVersion(after, running);
      if (!file.ok) throw this.files.damagedVersion(id, running.sequence, file);
      text = file.value.text;
      const marker: PendingMarker = { sequence: running.sequence, workingDigest: this.files.workingDigest(id) ?? null };
      writeFileAtomic(this.layout.pendingPath(id), JSON.stringify(marker));
    }
    writeFileAtomic(this.layout.indexPath(id), encodeIndex({ ...after, id }));
    if (text === undefined) return;
    try {
      writeFileAtomic(this.layout.workingPath(id), text);
    } catch (err) {
      // The working copy cannot be written (a name too long for the file system, a folder in its place):
      // put the index back, so nothing half-done is left.
      writeFileAtomic(this.layout.indexPath(id), encodeIndex({ ...(before as FolderIndex), id }));
      rmSync(this.layout.pendingPath(id), { force: true });
      throw new StoreError(
        'invalid_save',
        `${id}: the working copy cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'}); nothing was stored`,
      );
    }
    rmSync(this.layout.pendingPath(id), { force: true });
  }

  private scanning(): FolderScan {
    return {
      layout: this.layout,
      files: this.files,
      maxDocumentBytes: this.maxDocumentBytes,
      validate: this.options.validate,
      now: this.now,
    };
  }
}
