// FolderDocumentStore: working copies in a folder, every version in a state folder inside it
// (.tollgate/ unless stateRoot names another), written atomically under a lock that makes two
// processes on one host safe. A working copy edited by hand becomes a version authored `external`,
// or a rejected version that never runs when it does not load.
import { existsSync, type FSWatcher, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, watch } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isTempFile, writeFileAtomic } from './atomic-file.ts';
import { digestOf } from './digest.ts';
import { idProblem } from './document-id.ts';
import { type DocumentIndex, emptyIndex, planActivate, planPrune, planRevert, planSave } from './document-index.ts';
import { FileLock } from './lock.ts';
import { checkSave, DEFAULT_MAX_DOCUMENT_BYTES, DEFAULT_MAX_VERSIONS } from './memory-store.ts';
import {
  type DocumentSave,
  type DocumentStore,
  type DocumentVersion,
  type StoredDocument,
  StoreError,
  type StoreProblem,
  type StoreWrite,
} from './types.ts';

export interface FolderStoreOptions {
  /** Where versions are kept; `<folder>/.tollgate` unless given. */
  stateRoot?: string;
  /** A larger working copy is reported in problems and not read (4 MiB unless set). */
  maxDocumentBytes?: number;
  /** Oldest versions that do not run are pruned past this many (100 unless set). */
  maxVersionsPerDocument?: number;
  /** Watch the folder and take in working copies edited by hand (on unless false). */
  watch?: boolean;
  debounceMs?: number;
  /** Whether a working copy loads: its problems, empty when it does. Without it, every text loads. */
  validate?: (id: string, text: string) => string[];
  /** Called after the folder was read again and some document gained a version. */
  onChange?: (ids: string[]) => void;
  /** Called after each write through this store's methods (save, activate, revert, state). */
  onWrite?: (write: StoreWrite) => void;
  now?: () => Date;
}

interface FolderIndex extends DocumentIndex {
  id?: string;
}

interface VersionFile {
  version: DocumentVersion;
  text: string;
}

const EXTERNAL = { kind: 'external', label: 'working copy' } as const;

/**
 * A document store in a folder.
 *
 * @example
 * const store = await FolderDocumentStore.open('documents');
 * const running = await store.get('policies/refunds.policy.json');
 */
export class FolderDocumentStore implements DocumentStore {
  readonly root: string;
  readonly stateRoot: string;
  readonly maxDocumentBytes: number;
  private readonly maxVersions: number;
  private readonly options: FolderStoreOptions;
  private readonly lock: FileLock;
  private readonly now: () => Date;
  private readonly watchers = new Map<string, FSWatcher>();
  private watching = false;
  private timer: NodeJS.Timeout | undefined;
  private found: StoreProblem[] = [];

  private constructor(root: string, options: FolderStoreOptions) {
    this.root = resolve(root);
    this.stateRoot = resolve(options.stateRoot ?? join(this.root, '.tollgate'));
    this.maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    this.maxVersions = options.maxVersionsPerDocument ?? DEFAULT_MAX_VERSIONS;
    this.options = options;
    this.now = options.now ?? (() => new Date());
    mkdirSync(join(this.stateRoot, 'documents'), { recursive: true });
    this.lock = new FileLock(join(this.stateRoot, 'lock'));
  }

  /** Opens a folder (creating it if needed), takes in its working copies, and starts watching. */
  static async open(root: string, options: FolderStoreOptions = {}): Promise<FolderDocumentStore> {
    mkdirSync(root, { recursive: true });
    const store = new FolderDocumentStore(root, options);
    store.rescan();
    if (options.watch !== false) store.startWatching();
    return store;
  }

  async list(): Promise<string[]> {
    const ids: string[] = [];
    for (const entry of safeReaddir(join(this.stateRoot, 'documents'))) {
      try {
        const index = JSON.parse(readFileSync(join(this.stateRoot, 'documents', entry, 'index.json'), 'utf8')) as FolderIndex;
        if (typeof index.id === 'string' && index.versions.length > 0) ids.push(index.id);
      } catch {
        // not a document's folder
      }
    }
    return ids.sort();
  }

  async get(id: string): Promise<StoredDocument | undefined> {
    const index = this.readIndex(id);
    return index?.running == null ? undefined : this.getVersion(id, index.running);
  }

  async getVersion(id: string, sequence: number): Promise<StoredDocument | undefined> {
    if (idProblem(id)) return undefined;
    const index = this.readIndex(id);
    const version = index?.versions.find((v) => v.sequence === sequence);
    if (!index || !version) return undefined;
    const file = this.readVersionFile(id, sequence);
    if (!file || digestOf(file.text) !== version.digest) return undefined;
    return { ...version, text: file.text };
  }

  async history(id: string): Promise<DocumentVersion[]> {
    if (idProblem(id)) return [];
    return [...(this.readIndex(id)?.versions ?? [])];
  }

  async save(save: DocumentSave): Promise<DocumentVersion> {
    checkSave(save, this.maxDocumentBytes);
    this.checkNoLinkOut(save.id);
    const version = this.lock.hold(() => this.saveLocked(save));
    this.options.onWrite?.({ kind: 'document', id: save.id });
    return version;
  }

  async activate(id: string, sequence: number): Promise<DocumentVersion> {
    const version = this.lock.hold(() => {
      const index = this.requireIndex(id);
      const planned = planActivate(index, id, sequence);
      this.commit(id, index, planned.index);
      return planned.version;
    });
    this.options.onWrite?.({ kind: 'document', id });
    return version;
  }

  async revert(id: string): Promise<DocumentVersion> {
    const version = this.lock.hold(() => {
      const index = this.requireIndex(id);
      const planned = planRevert(index, id);
      this.commit(id, index, planned.index);
      return planned.version;
    });
    this.options.onWrite?.({ kind: 'document', id });
    return version;
  }

  problems(): StoreProblem[] {
    return [...this.found];
  }

  async readState(key: string): Promise<unknown> {
    try {
      return JSON.parse(readFileSync(this.statePath(key), 'utf8'));
    } catch {
      return undefined;
    }
  }

  async writeState(key: string, value: unknown): Promise<void> {
    this.lock.hold(() => writeFileAtomic(this.statePath(key), JSON.stringify(value)));
    this.options.onWrite?.({ kind: 'state', key });
  }

  async close(): Promise<void> {
    this.watching = false;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Reads the folder again: new and hand-edited working copies become versions. Returns the ids that gained one. */
  rescan(): string[] {
    const changed = this.lock.hold(() => this.scanLocked());
    this.syncWatchers();
    return changed;
  }

  private saveLocked(save: DocumentSave): DocumentVersion {
    const before = this.readIndex(save.id) ?? emptyIndex();
    const planned = planSave(before, save, this.now());
    const pruned = planPrune(planned.index, this.maxVersions);
    writeFileAtomic(this.versionPath(save.id, planned.version.sequence), JSON.stringify({ version: planned.version, text: save.text }));
    this.commit(save.id, before, pruned.index);
    for (const s of pruned.dropped) rmSync(this.versionPath(save.id, s), { force: true });
    return planned.version;
  }

  /**
   * Writes the index, then the working copy when the running version changed. A pending marker spans the
   * two: a crash between them leaves the marker, and the next read of the folder finishes the write
   * instead of taking the stale working copy for a hand edit.
   */
  private commit(id: string, before: FolderIndex, after: DocumentIndex): void {
    const running = after.versions.find((v) => v.sequence === after.running);
    const rewrite = running !== undefined && running.sequence !== before.running;
    if (rewrite) writeFileAtomic(this.pendingPath(id), JSON.stringify({ sequence: running.sequence }));
    writeFileAtomic(this.indexPath(id), JSON.stringify({ ...after, id }));
    if (!rewrite) return;
    try {
      const file = this.readVersionFile(id, running.sequence);
      if (file) writeFileAtomic(this.workingPath(id), file.text);
    } catch (err) {
      // The working copy cannot be written (a name too long for the file system, a folder in its place):
      // put the index back, so nothing half-done is left.
      writeFileAtomic(this.indexPath(id), JSON.stringify({ ...before, id }));
      rmSync(this.pendingPath(id), { force: true });
      throw new StoreError(
        'invalid_save',
        `${id}: the working copy cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'}); nothing was stored`,
      );
    }
    rmSync(this.pendingPath(id), { force: true });
  }

  private scanLocked(): string[] {
    const problems: StoreProblem[] = [];
    const changed: string[] = [];
    this.cleanTemps(this.stateRoot);
    for (const { id, path } of this.workingCopies(problems)) {
      const size = lstatSync(path).size;
      if (size > this.maxDocumentBytes) {
        problems.push({
          id,
          code: 'too_large',
          message: `${id} is ${size} bytes, over the limit of ${this.maxDocumentBytes}; it was not read and the version before keeps running`,
        });
        continue;
      }
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
      } catch {
        problems.push({ id, code: 'unreadable', message: `${id} is not UTF-8 text; it was not read` });
        continue;
      }
      const index: FolderIndex = this.readIndex(id) ?? emptyIndex();
      const digest = digestOf(text);
      const running = index.versions.find((v) => v.sequence === index.running);
      if (running?.digest === digest) continue;
      if (running && existsSync(this.pendingPath(id))) {
        // A crash came between writing the index and the working copy: finish the write.
        const file = this.readVersionFile(id, running.sequence);
        if (file) writeFileAtomic(path, file.text);
        rmSync(this.pendingPath(id), { force: true });
        continue;
      }
      if (index.versions.some((v) => v.rejected && v.digest === digest && v.sequence === index.next - 1)) continue;
      const reasons = this.options.validate?.(id, text) ?? [];
      const save: DocumentSave = { id, text, author: EXTERNAL, reason: 'the working copy was edited', activate: true };
      if (reasons.length > 0) save.rejected = reasons;
      const before = index;
      const planned = planSave(before, save, this.now());
      const pruned = planPrune(planned.index, this.maxVersions);
      writeFileAtomic(this.versionPath(id, planned.version.sequence), JSON.stringify({ version: planned.version, text }));
      // The working copy already holds this text: the index alone records it.
      writeFileAtomic(this.indexPath(id), JSON.stringify({ ...pruned.index, id }));
      for (const s of pruned.dropped) rmSync(this.versionPath(id, s), { force: true });
      changed.push(id);
    }
    for (const entry of safeReaddir(join(this.stateRoot, 'documents'))) {
      const index = this.readIndexFile(join(this.stateRoot, 'documents', entry, 'index.json'));
      if (index?.id && index.running !== null && !existsSync(this.workingPath(index.id))) {
        problems.push({
          id: index.id,
          code: 'missing_working_copy',
          message: `${index.id} has no working copy in the folder; version ${index.running} keeps running`,
        });
      }
    }
    this.found = problems;
    if (changed.length > 0) this.options.onChange?.(changed);
    return changed;
  }

  private *workingCopies(problems: StoreProblem[]): Generator<{ id: string; path: string }> {
    const stateRel = relative(this.root, this.stateRoot);
    const walk = function* (this: FolderDocumentStore, dir: string): Generator<{ id: string; path: string }> {
      for (const entry of safeReaddir(dir)) {
        const path = join(dir, entry);
        const id = relative(this.root, path).split(sep).join('/');
        if (isTempFile(entry)) {
          // Half of a working copy a crash left behind: it never became the file, so it goes.
          rmSync(path, { force: true });
          continue;
        }
        if (entry.startsWith('.') || id === stateRel) continue;
        const stat = lstatSync(path);
        if (stat.isSymbolicLink()) {
          if (!this.inside(path))
            problems.push({ id, code: 'link_outside', message: `${id} is a link out of the folder; it is not followed` });
          continue;
        }
        if (stat.isDirectory()) yield* walk.call(this, path);
        else if (stat.isFile()) {
          const problem = idProblem(id);
          if (problem) problems.push({ id, code: 'invalid_id', message: `${id}: ${problem}` });
          else yield { id, path };
        }
      }
    };
    yield* walk.call(this, this.root);
  }

  /**
   * Watches every folder of the tree (not recursive watching, which on Linux loses files replaced by a
   * rename): a change anywhere schedules one rescan once the folder has been quiet for the debounce.
   */
  private startWatching(): void {
    this.watching = true;
    this.syncWatchers();
  }

  private syncWatchers(): void {
    if (!this.watching) return;
    const wanted = new Set<string>();
    const walk = (dir: string) => {
      wanted.add(dir);
      for (const entry of safeReaddir(dir)) {
        const path = join(dir, entry);
        if (entry.startsWith('.') || path === this.stateRoot) continue;
        if (lstatSync(path).isDirectory()) walk(path);
      }
    };
    walk(this.root);
    for (const [dir, watcher] of this.watchers) {
      if (!wanted.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    for (const dir of wanted) {
      if (this.watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, (_event, name) => {
          if (String(name ?? '').startsWith('.')) return;
          this.schedule();
        });
        watcher.on('error', () => {
          watcher.close();
          this.watchers.delete(dir);
        });
        this.watchers.set(dir, watcher);
      } catch {
        // A folder removed meanwhile: the next rescan settles the set.
      }
    }
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      try {
        this.rescan();
      } catch {
        // A busy lock or a file mid-write: the next change reads the folder again.
      }
    }, this.options.debounceMs ?? 250);
  }

  /** Refuses an id inside the state folder, or whose path passes through a link that leads out of the folder. */
  private checkNoLinkOut(id: string): void {
    const target = resolve(this.root, ...id.split('/'));
    if (target === this.stateRoot || target.startsWith(this.stateRoot + sep)) {
      throw new StoreError('invalid_id', `${id} is inside the store's state folder, which holds no documents`);
    }
    let path = this.root;
    for (const segment of id.split('/')) {
      path = join(path, segment);
      if (!existsSync(path) && !isLink(path)) return;
      if (isLink(path) && !this.inside(path)) {
        throw new StoreError('invalid_id', `${id} passes through ${relative(this.root, path)}, a link out of the folder`);
      }
    }
  }

  private inside(path: string): boolean {
    try {
      const real = realpathSync(path);
      const root = realpathSync(this.root);
      return real === root || real.startsWith(root + sep);
    } catch {
      return false;
    }
  }

  private cleanTemps(dir: string): void {
    for (const entry of safeReaddir(dir)) {
      const path = join(dir, entry);
      if (isTempFile(entry)) rmSync(path, { force: true });
      else if (lstatSync(path).isDirectory()) this.cleanTemps(path);
    }
  }

  private requireIndex(id: string): FolderIndex {
    const problem = idProblem(id);
    if (problem) throw new StoreError('invalid_id', `${JSON.stringify(id)}: ${problem}`);
    const index = this.readIndex(id);
    if (!index) throw new StoreError('not_found', `no document ${id}`);
    return index;
  }

  private readIndex(id: string): FolderIndex | undefined {
    return this.readIndexFile(this.indexPath(id));
  }

  private readIndexFile(path: string): FolderIndex | undefined {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as FolderIndex;
    } catch {
      return undefined;
    }
  }

  private readVersionFile(id: string, sequence: number): VersionFile | undefined {
    try {
      return JSON.parse(readFileSync(this.versionPath(id, sequence), 'utf8')) as VersionFile;
    } catch {
      return undefined;
    }
  }

  /** One flat folder per document, named by the encoded id (a digest for very long ids), so no id nests in another. */
  private docDir(id: string): string {
    const encoded = encodeURIComponent(id);
    return join(this.stateRoot, 'documents', encoded.length <= 200 ? encoded : `id-${digestOf(id)}`);
  }

  private indexPath(id: string): string {
    return join(this.docDir(id), 'index.json');
  }

  private versionPath(id: string, sequence: number): string {
    return join(this.docDir(id), 'versions', `${sequence}.json`);
  }

  private pendingPath(id: string): string {
    return join(this.docDir(id), 'pending.json');
  }

  private workingPath(id: string): string {
    return join(this.root, ...id.split('/'));
  }

  private statePath(key: string): string {
    const problem = idProblem(key);
    if (problem) throw new StoreError('invalid_id', `state key ${JSON.stringify(key)}: ${problem}`);
    return `${join(this.stateRoot, 'state', ...key.split('/'))}.json`;
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
