// FolderDocumentStore: working copies in a folder, every version in a state folder inside it
// (.tollgate/ unless stateRoot names another), written atomically under a lock that makes two
// processes on one host safe. A working copy edited by hand becomes a version authored `external`,
// or a rejected version that never runs when it does not load. The files, their checksums and what is
// done when one is damaged are in docs/store.md ("On disk", "Invariants").
import { existsSync, type FSWatcher, lstatSync, mkdirSync, readFileSync, realpathSync, rmSync, watch } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isTempFile, moveAside, writeFileAtomic, writeFileOnce } from './atomic-file.ts';
import { digestOf } from './digest.ts';
import { idProblem } from './document-id.ts';
import { checkPrecondition, type DocumentIndex, emptyIndex, planActivate, planPrune, planRevert, planSave } from './document-index.ts';
import { DEFAULT_LOCK_TIMEOUT_MS, FileLock } from './lock.ts';
import { checkSave, DEFAULT_MAX_DOCUMENT_BYTES, DEFAULT_MAX_VERSIONS, inUseOf } from './memory-store.ts';
import {
  decodeIndex,
  decodePending,
  encodeIndex,
  encodeVersionFile,
  type FolderIndex,
  idOfDir,
  type PendingMarker,
  type Read,
  readVersionFile,
  rebuildIndex,
  safeReaddir,
  sha256,
  type VersionFile,
  versionFileSequences,
} from './store-format.ts';
import {
  type DocumentSave,
  type DocumentStore,
  type DocumentVersion,
  type Precondition,
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
  private opened = false;
  private unsent: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  private found: StoreProblem[] = [];
  /** Damage found by reads since the last scan, by file. */
  private readonly damage = new Map<string, StoreProblem>();

  private constructor(root: string, options: FolderStoreOptions) {
    this.root = resolve(root);
    this.stateRoot = resolve(options.stateRoot ?? join(this.root, '.tollgate'));
    this.maxDocumentBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
    this.maxVersions = options.maxVersionsPerDocument ?? DEFAULT_MAX_VERSIONS;
    this.options = options;
    this.now = options.now ?? (() => new Date());
    this.lock = new FileLock(join(this.stateRoot, 'lock'), options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
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
    if (options.watch !== false) store.startWatching();
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
      const read = this.readIndexAt(join(this.stateRoot, 'documents', entry));
      if (read.ok && read.value.versions.length > 0) ids.push(read.value.id);
    }
    return ids.sort();
  }

  async get(id: string): Promise<StoredDocument | undefined> {
    const index = this.readIndex(id);
    return index?.running == null ? undefined : this.getVersion(id, index.running);
  }

  /** A stored version with its text; undefined when there is none, or when its file is damaged (then reported in problems). */
  async getVersion(id: string, sequence: number): Promise<StoredDocument | undefined> {
    if (idProblem(id)) return undefined;
    const index = this.readIndex(id);
    const version = index?.versions.find((v) => v.sequence === sequence);
    if (!index || !version) return undefined;
    const file = this.verifiedVersion(index, version);
    return file.ok ? { ...version, text: file.value.text } : undefined;
  }

  async history(id: string): Promise<DocumentVersion[]> {
    if (idProblem(id)) return [];
    return [...(this.readIndex(id)?.versions ?? [])];
  }

  async save(save: DocumentSave): Promise<DocumentVersion> {
    checkSave(save, this.maxDocumentBytes);
    this.checkNoLinkOut(save.id);
    const version = await this.lock.hold(() => this.saveLocked(save));
    this.options.onWrite?.({ kind: 'document', id: save.id });
    await this.prune(save.id);
    return version;
  }

  async activate(id: string, sequence: number, options: WriteOptions = {}): Promise<DocumentVersion> {
    const version = await this.lock.hold(() => {
      const index = this.requireIndex(id);
      const planned = planActivate(index, id, sequence, options.ifMatch);
      this.commit(id, index, { ...index, ...planned.index });
      return planned.version;
    });
    this.options.onWrite?.({ kind: 'document', id });
    return version;
  }

  async revert(id: string, options: WriteOptions = {}): Promise<DocumentVersion> {
    const version = await this.lock.hold(() => {
      const index = this.requireIndex(id);
      const planned = planRevert(index, id, options.ifMatch);
      this.commit(id, index, { ...index, ...planned.index });
      return planned.version;
    });
    this.options.onWrite?.({ kind: 'document', id });
    return version;
  }

  problems(): StoreProblem[] {
    const seen = new Set(this.found.map((p) => `${p.id}\n${p.code}\n${p.message}`));
    return [...this.found, ...[...this.damage.values()].filter((p) => !seen.has(`${p.id}\n${p.code}\n${p.message}`))];
  }

  async readState(key: string): Promise<unknown> {
    try {
      return JSON.parse(readFileSync(this.statePath(key), 'utf8'));
    } catch {
      return undefined;
    }
  }

  async writeState(key: string, value: unknown, options: { ifMatch?: Precondition } = {}): Promise<void> {
    const path = this.statePath(key);
    const { ifMatch } = options;
    await this.lock.hold(() => {
      if (ifMatch) checkPrecondition(this.readIndex(ifMatch.id), ifMatch.id, ifMatch.newest);
      writeFileAtomic(path, JSON.stringify(value));
    });
    this.options.onWrite?.({ kind: 'state', key });
  }

  async updateState(key: string, update: (value: unknown) => unknown, options: { waitMs?: number } = {}): Promise<unknown> {
    const path = this.statePath(key);
    const value = await this.lock.hold(() => {
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
    this.watching = false;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
  }

  /** Reads the folder again: new and hand-edited working copies become versions. Resolves to the ids that gained one. */
  async rescan(): Promise<string[]> {
    return this.scan(false);
  }

  private async scan(opening: boolean): Promise<string[]> {
    const changed = await this.lock.hold(() => this.scanLocked(opening));
    this.syncWatchers();
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
    const before = this.indexForWrite(save.id);
    const planned = planSave(before, save, this.now());
    const after = this.storeVersion(save.id, before, planned.index, planned.version, save.text);
    this.commit(save.id, before, after);
    return planned.version;
  }

  /**
   * Writes a new version's file, never over an existing one; returns the index that names it, with the
   * checksums of the files before it (`before`'s: the planned index is built without them) and its own.
   */
  private storeVersion(id: string, before: DocumentIndex, index: DocumentIndex, version: DocumentVersion, text: string): FolderIndex {
    const data = encodeVersionFile(version, text);
    writeFileOnce(this.versionPath(id, version.sequence), data);
    const files = { ...((before as FolderIndex).files ?? {}), [version.sequence]: sha256(data) };
    return { ...index, id, files };
  }

  /**
   * Drops the oldest versions past the limit that nothing uses (docs/store.md, "Retention"). The index is
   * written first, so a crash leaves orphan files (reported, moved aside by repair), never a missing one.
   * A busy lock leaves pruning to the next write: a stored version is never refused for it.
   */
  private async prune(id: string): Promise<void> {
    const index = this.readIndex(id);
    if (!index || index.versions.length <= this.maxVersions) return;
    const inUse = await inUseOf(this.options.versionsInUse, id, this);
    try {
      await this.lock.hold(() => {
        const current = this.readIndex(id);
        if (!current) return;
        const pruned = planPrune(current, this.maxVersions, inUse);
        if (pruned.dropped.length === 0) return;
        const files = { ...(current.files ?? {}) };
        for (const s of pruned.dropped) delete files[s];
        writeFileAtomic(this.indexPath(id), encodeIndex({ ...pruned.index, id, files }));
        for (const s of pruned.dropped) rmSync(this.versionPath(id, s), { force: true });
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
      const file = this.verifiedVersion(after, running);
      if (!file.ok) throw this.damagedVersion(id, running.sequence, file);
      text = file.value.text;
      const marker: PendingMarker = { sequence: running.sequence, workingDigest: this.workingDigest(id) ?? null };
      writeFileAtomic(this.pendingPath(id), JSON.stringify(marker));
    }
    writeFileAtomic(this.indexPath(id), encodeIndex({ ...after, id }));
    if (text === undefined) return;
    try {
      writeFileAtomic(this.workingPath(id), text);
    } catch (err) {
      // The working copy cannot be written (a name too long for the file system, a folder in its place):
      // put the index back, so nothing half-done is left.
      writeFileAtomic(this.indexPath(id), encodeIndex({ ...(before as FolderIndex), id }));
      rmSync(this.pendingPath(id), { force: true });
      throw new StoreError(
        'invalid_save',
        `${id}: the working copy cannot be written (${(err as NodeJS.ErrnoException).code ?? 'error'}); nothing was stored`,
      );
    }
    rmSync(this.pendingPath(id), { force: true });
  }

  private scanLocked(opening: boolean): string[] {
    const problems: StoreProblem[] = [];
    const changed: string[] = [];
    this.damage.clear();
    this.cleanTemps(this.stateRoot);
    // Every document the state folder knows: its index read (or rebuilt) and checked before anything is written.
    const known = new Set<string>();
    const unsettled = new Set<string>();
    for (const entry of safeReaddir(join(this.stateRoot, 'documents'))) {
      const dir = join(this.stateRoot, 'documents', entry);
      if (!lstatSync(dir).isDirectory()) continue;
      let index: FolderIndex | undefined;
      try {
        index = this.settleIndex(dir, problems);
      } catch (err) {
        if (opening || !(err instanceof StoreError)) throw err;
        problems.push({ id: idOfDir(entry), code: 'damaged_index', message: err.message });
        unsettled.add(idOfDir(entry));
        continue;
      }
      if (!index) continue;
      known.add(index.id);
      this.checkDocument(dir, index, problems);
      if (this.finishPending(index)) changed.push(index.id);
    }
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
      if (unsettled.has(id)) continue; // its index is damaged and reported above; nothing is written over it
      const index = this.indexForWrite(id);
      const digest = digestOf(text);
      const running = index.versions.find((v) => v.sequence === index.running);
      if (running?.digest === digest) continue;
      if (index.versions.some((v) => v.rejected && v.digest === digest && v.sequence === index.next - 1)) continue;
      const reasons = this.options.validate?.(id, text) ?? [];
      const save: DocumentSave = { id, text, author: EXTERNAL, reason: 'the working copy was edited', activate: true };
      if (reasons.length > 0) save.rejected = reasons;
      const planned = planSave(index, save, this.now());
      // The working copy already holds this text: the version file and the index alone record it.
      const after = this.storeVersion(id, index, planned.index, planned.version, text);
      writeFileAtomic(this.indexPath(id), encodeIndex(after));
      rmSync(this.pendingPath(id), { force: true });
      changed.push(id);
    }
    for (const id of known) {
      const index = this.readIndex(id);
      if (index && index.running !== null && !existsSync(this.workingPath(id))) {
        problems.push({
          id,
          code: 'missing_working_copy',
          message: `${id} has no working copy in the folder; version ${index.running} keeps running`,
        });
      }
    }
    this.found = problems;
    return [...new Set(changed)];
  }

  /**
   * A pending marker left by a crash between the index and the working copy: when the working copy still
   * holds the text it had then (or is missing and had none), the write is finished. Otherwise the working
   * copy was edited since, and the scan of working copies takes it in as a version: it is never discarded.
   */
  private finishPending(index: FolderIndex): boolean {
    const path = this.pendingPath(index.id);
    let marker: PendingMarker | undefined;
    try {
      marker = decodePending(readFileSync(path));
    } catch {
      return false;
    }
    const running = index.versions.find((v) => v.sequence === index.running);
    const now = this.workingDigest(index.id);
    if (!running || marker === undefined) {
      rmSync(path, { force: true });
      return false;
    }
    if (now === running.digest) {
      rmSync(path, { force: true });
      return false;
    }
    const stale = marker.workingDigest !== undefined && (marker.workingDigest ?? undefined) === now;
    if (!stale) return false; // a hand edit: the working copies' scan makes it a version and drops the marker
    const file = this.verifiedVersion(index, running);
    if (!file.ok) return false; // reported by checkDocument; the working copy is left as it is
    writeFileAtomic(this.workingPath(index.id), file.value.text);
    rmSync(path, { force: true });
    return false;
  }

  /** Reports what is wrong in one document's state folder: its running version's file, orphan version files. */
  private checkDocument(dir: string, index: FolderIndex, problems: StoreProblem[]): void {
    const running = index.versions.find((v) => v.sequence === index.running);
    if (running) {
      const file = this.verifiedVersion(index, running);
      if (!file.ok) problems.push(this.damagedVersion(index.id, running.sequence, file).problem);
    }
    const named = new Set(index.versions.map((v) => v.sequence));
    for (const s of versionFileSequences(dir)) {
      if (named.has(s)) continue;
      problems.push({
        id: index.id,
        code: 'orphan_version',
        message: `${relative(this.stateRoot, join(dir, 'versions', `${s}.json`))} is a version file no index names (left by a crash); \`tollgate store repair\` moves it to lost+found`,
      });
    }
  }

  /**
   * The index of a document folder, rebuilt from its version files when it is damaged or missing (the
   * damaged one is moved to lost+found, never deleted). Throws `damaged` when no version file can rebuild it.
   */
  private settleIndex(dir: string, problems: StoreProblem[]): FolderIndex | undefined {
    const path = join(dir, 'index.json');
    const read = this.readIndexAt(dir);
    if (read.ok) return read.value;
    const sequences = versionFileSequences(dir);
    if (read.missing && sequences.length === 0) return undefined;
    const files: VersionFile[] = [];
    const shas: Record<string, string> = {};
    for (const s of sequences) {
      const file = readVersionFile(join(dir, 'versions', `${s}.json`));
      if (file.ok) {
        files.push(file.value);
        shas[s] = sha256(readFileSync(join(dir, 'versions', `${s}.json`)));
      }
    }
    const id = files[0]?.version.id ?? idOfDir(relative(join(this.stateRoot, 'documents'), dir));
    const rel = relative(this.stateRoot, path);
    const rebuilt = rebuildIndex(id, files, this.workingDigest(id));
    if (!rebuilt) {
      throw new StoreError(
        'damaged',
        `${rel} ${read.ok ? '' : read.why}, and no whole version file can rebuild it; nothing was written. Run \`tollgate store repair --data DIR\` (it moves the damaged files to lost+found and takes the working copy in as a new version)`,
      );
    }
    if (!read.missing) moveAside(path, this.lostAndFound(path));
    writeFileAtomic(path, encodeIndex({ ...rebuilt, files: shas }));
    // A first save cut short before its working copy was written: the working copy is created, never replaced.
    const running = files.find((f) => f.version.sequence === rebuilt.running);
    if (running && !existsSync(this.workingPath(id)) && !idProblem(id)) {
      try {
        this.checkNoLinkOut(id);
        writeFileAtomic(this.workingPath(id), running.text);
      } catch {
        // A path the folder cannot hold: reported as a missing working copy instead.
      }
    }
    problems.push({
      id,
      code: 'index_rebuilt',
      message: `${rel} ${read.missing ? 'was missing' : `${read.why}; it was moved to lost+found`} and was rebuilt from ${files.length} version file(s)${files.length < sequences.length ? `; ${sequences.length - files.length} damaged version file(s) left out` : ''}; version ${rebuilt.running ?? 'none'} runs`,
    });
    return { ...rebuilt, files: shas };
  }

  /** Where a damaged or stray file goes: `<state>/lost+found/<time>/<its path in the state folder>`. */
  private lostAndFound(path: string): string {
    const stamp = this.now().toISOString().replace(/[:.]/g, '-');
    return join(this.stateRoot, 'lost+found', `${stamp}-${process.pid}`, relative(this.stateRoot, path));
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
    if (!this.watching) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.rescan().catch((err) => {
        // A busy lock: the change is not lost, the folder is read again after the next quiet spell.
        if (err instanceof StoreError && err.code === 'locked') this.schedule();
      });
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
      if (entry === 'lost+found' && dir === this.stateRoot) continue;
      if (isTempFile(entry)) rmSync(path, { force: true });
      else if (lstatSync(path).isDirectory()) this.cleanTemps(path);
    }
  }

  private requireIndex(id: string): FolderIndex {
    const problem = idProblem(id);
    if (problem) throw new StoreError('invalid_id', `${JSON.stringify(id)}: ${problem}`);
    const read = this.readIndexAt(this.docDir(id));
    if (!read.ok && !read.missing) throw this.damagedIndex(id, read.why);
    if (!read.ok) throw new StoreError('not_found', `no document ${id}`);
    return read.value;
  }

  /**
   * The index a write builds on: never an empty one in place of a damaged one (that would write version 1
   * over the history), and with `next` past every version file on disk, so no file is ever written twice.
   */
  private indexForWrite(id: string): FolderIndex {
    const dir = this.docDir(id);
    const read = this.readIndexAt(dir);
    if (!read.ok && !read.missing) throw this.damagedIndex(id, read.why);
    const sequences = versionFileSequences(dir);
    if (!read.ok && sequences.length > 0) {
      const problems: StoreProblem[] = [];
      const rebuilt = this.settleIndex(dir, problems);
      this.found.push(...problems);
      if (rebuilt) return rebuilt;
    }
    const index: FolderIndex = read.ok ? read.value : { ...emptyIndex(), id, files: {} };
    const highest = sequences.at(-1) ?? 0;
    return highest >= index.next ? { ...index, next: highest + 1 } : index;
  }

  private readIndex(id: string): FolderIndex | undefined {
    const read = this.readIndexAt(this.docDir(id));
    if (read.ok) this.damage.delete(relative(this.stateRoot, this.indexPath(id)));
    else if (!read.missing) this.damagedIndex(id, read.why);
    return read.ok ? read.value : undefined;
  }

  private readIndexAt(dir: string): Read<FolderIndex> {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, 'index.json'));
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      return { ok: false, missing, why: missing ? 'is missing' : 'cannot be read' };
    }
    return decodeIndex(bytes);
  }

  private verifiedVersion(index: FolderIndex, version: DocumentVersion): Read<VersionFile> {
    let read = readVersionFile(this.versionPath(index.id, version.sequence), index.files?.[version.sequence]);
    if (read.ok && read.value.version.digest !== version.digest) {
      read = { ok: false, missing: false, why: 'holds another text than the index names' };
    }
    if (!read.ok) this.damagedVersion(index.id, version.sequence, read);
    // A file restored from a backup is whole again: health stops naming it.
    else this.damage.delete(relative(this.stateRoot, this.versionPath(index.id, version.sequence)));
    return read;
  }

  private damagedVersion(id: string, sequence: number, read: Read<VersionFile>): StoreError & { problem: StoreProblem } {
    const rel = relative(this.stateRoot, this.versionPath(id, sequence));
    const why = read.ok ? '' : read.why;
    const problem: StoreProblem = {
      id,
      code: 'damaged_version',
      message: `${id} version ${sequence}: ${rel} ${why}; it is refused, never replaced. Restore the file from a backup, or activate or save another version; \`tollgate store check\` lists every damaged file`,
    };
    this.damage.set(rel, problem);
    return Object.assign(new StoreError('damaged', problem.message), { problem });
  }

  private damagedIndex(id: string, why: string): StoreError {
    const rel = relative(this.stateRoot, this.indexPath(id));
    const message = `${id}: ${rel} ${why}; nothing was written. Run \`tollgate store repair --data DIR\` to rebuild it from the version files`;
    this.damage.set(rel, { id, code: 'damaged_index', message });
    return new StoreError('damaged', message);
  }

  private workingDigest(id: string): string | undefined {
    try {
      return digestOf(readFileSync(this.workingPath(id), 'utf8'));
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

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
