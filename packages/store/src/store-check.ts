// `store check` and `store repair` for a folder store, like `git fsck`: check reads every file of the state
// folder and reports each inconsistency by name, writing nothing; repair fixes what it can without losing
// anything (strays go to lost+found, never deleted) and leaves the rest reported (docs/store.md, "Faults").
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isTempFile, moveAside } from './atomic-file.ts';
import { digestOf } from './digest.ts';
import { idProblem } from './document-id.ts';
import { loadProblems } from './edits/engine-validators.ts';
import { FolderDocumentStore } from './folder-store.ts';
import { DEFAULT_LOCK_TIMEOUT_MS, FileLock } from './lock.ts';
import { DEFAULT_MAX_DOCUMENT_BYTES } from './memory-store.ts';
import {
  decodeIndex,
  decodePending,
  type FolderIndex,
  idOfDir,
  type Read,
  readBytes,
  readVersionFile,
  safeReaddir,
  type VersionFile,
  versionFileSequences,
} from './store-format.ts';

/** Every finding's code; each is in the one code registry (packages/engine/src/codes/documents.ts). */
export const FINDING_CODES = [
  'DAMAGED_INDEX',
  'MISSING_INDEX',
  'DAMAGED_VERSION',
  'ORPHAN_VERSION',
  'STALE_PENDING',
  'TEMP_FILE',
  'WORKING_COPY_DIFFERS',
  'WORKING_COPY_REJECTED',
  'RUNNING_NOT_LOADABLE',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];

/** One inconsistency: what, which document, which file (relative to the folder), and why. */
export interface StoreFinding {
  code: FindingCode;
  id: string | null;
  file: string;
  message: string;
}

export interface CheckOptions {
  stateRoot?: string;
  maxDocumentBytes?: number;
  /**
   * Whether a text loads: its problems, empty when it does. The engine's validators (`loadProblems`, as serve's
   * store takes hand edits in) unless given, so repair never makes a text that does not load run.
   */
  validate?: (id: string, text: string) => string[];
}

/**
 * Every inconsistency of a folder store, without writing anything.
 *
 * @example
 * const findings = checkStore('data/documents'); // [] when the store is whole
 */
export function checkStore(root: string, options: CheckOptions = {}): StoreFinding[] {
  const folder = resolve(root);
  const stateRoot = resolve(options.stateRoot ?? join(folder, '.tollgate'));
  const maxBytes = options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const validate = options.validate ?? loadProblems;
  const rel = (path: string) => relative(folder, path).split(sep).join('/');
  const findings: StoreFinding[] = [];
  const add = (code: FindingCode, id: string | null, path: string, why: string) =>
    findings.push({ code, id, file: rel(path), message: `${rel(path)} ${why}` });
  const indexes = new Map<string, FolderIndex>();
  const pendingFor = new Set<string>();

  for (const path of tempFiles(stateRoot)) add('TEMP_FILE', null, path, 'is half of a write a crash left; it is removed at the next start');
  const documents = join(stateRoot, 'documents');
  for (const entry of safeReaddir(documents)) {
    const dir = join(documents, entry);
    if (!isDir(dir)) continue;
    const indexPath = join(dir, 'index.json');
    const sequences = versionFileSequences(dir);
    const read = readIndex(indexPath);
    if (!read.ok) {
      if (!read.missing) add('DAMAGED_INDEX', idOfDir(entry), indexPath, `${read.why}; repair rebuilds it from the version files`);
      else if (sequences.length > 0)
        add('MISSING_INDEX', idOfDir(entry), indexPath, `is missing beside ${sequences.length} version file(s); repair rebuilds it`);
      for (const s of sequences) {
        const path = join(dir, 'versions', `${s}.json`);
        const file = readVersionFile(path);
        if (!file.ok) add('DAMAGED_VERSION', idOfDir(entry), path, `${file.why}; it is refused, never replaced: restore it from a backup`);
      }
      continue;
    }
    const index = read.value;
    indexes.set(index.id, index);
    const named = new Set<number>();
    for (const version of index.versions) {
      named.add(version.sequence);
      const path = join(dir, 'versions', `${version.sequence}.json`);
      const file: Read<VersionFile> = readVersionFile(path, index.files?.[version.sequence]);
      const why = !file.ok
        ? file.why
        : file.value.version.digest !== version.digest
          ? 'holds another text than the index names'
          : undefined;
      if (why)
        add(
          'DAMAGED_VERSION',
          index.id,
          path,
          `(version ${version.sequence}${version.running ? ', running' : ''}) ${why}; it is refused, never replaced: restore it from a backup`,
        );
      else if (version.running && file.ok) {
        // A running version that does not load fails every call that needs it (how an older repair left a hand edit).
        const problems = validate(index.id, file.value.text);
        if (problems.length > 0)
          add(
            'RUNNING_NOT_LOADABLE',
            index.id,
            path,
            `(version ${version.sequence}, running) does not load: ${problems[0]}; run a version that loads (revert, or activate one) or mend the working copy`,
          );
      }
    }
    for (const s of sequences) {
      if (!named.has(s))
        add(
          'ORPHAN_VERSION',
          index.id,
          join(dir, 'versions', `${s}.json`),
          'is a version file no index names (left by a crash); repair moves it to lost+found',
        );
    }
    const pending = join(dir, 'pending.json');
    if (existsSync(pending)) {
      pendingFor.add(index.id);
      let marker: ReturnType<typeof decodePending>;
      try {
        marker = decodePending(readFileSync(pending));
      } catch {
        marker = undefined;
      }
      add(
        'STALE_PENDING',
        index.id,
        pending,
        `is left by a write a crash cut short (to version ${marker?.sequence ?? '?'}); the next start or repair finishes it, or takes a hand edit in`,
      );
    }
  }

  // Working copies that differ from the running version: a hand edit not taken in yet.
  for (const { id, path } of workingCopies(folder, stateRoot)) {
    let bytes: Buffer;
    try {
      if (lstatSync(path).size > maxBytes) continue; // reported as too_large by the store, never read
      bytes = readFileSync(path);
    } catch {
      continue;
    }
    const index = indexes.get(id);
    const text = bytes.toString('utf8');
    const digest = digestOf(text);
    const running = index?.versions.find((v) => v.sequence === index.running);
    if (running?.digest === digest) continue;
    if (pendingFor.has(id)) continue; // the stale marker above explains it: one fault, reported once
    if (!index && existsSync(join(documents, encodeURIComponent(id)))) continue; // its index is reported above
    const runs = running ? `version ${running.sequence} keeps running` : 'nothing runs';
    const newest = index?.versions.at(-1);
    if (newest?.rejected && newest.digest === digest) {
      // Kept as a rejected version already: the store is consistent, but the folder's text is not what runs.
      add(
        'WORKING_COPY_REJECTED',
        id,
        path,
        `does not load (${newest.problems[0] ?? 'rejected'}); it is kept as rejected version ${newest.sequence} and ${runs}: mend the file and it is taken in`,
      );
      continue;
    }
    const problems = validate(id, text);
    add(
      'WORKING_COPY_DIFFERS',
      id,
      path,
      problems.length > 0
        ? `does not load (${problems[0]}); the next start or repair keeps it as a rejected version and ${runs}`
        : running
          ? `differs from the running version ${running.sequence}; the next start or repair takes it in as a version`
          : 'has no version yet; the next start or repair takes it in',
    );
  }
  return findings;
}

export interface RepairResult {
  /** What repair did, one line each. */
  actions: string[];
  /** What is still wrong after it (damaged version files, which only a backup can mend). */
  remaining: StoreFinding[];
}

/**
 * Fixes what can be fixed without losing anything: orphan version files and an index no version file can
 * rebuild go to `<state>/lost+found/`; a damaged or missing index is rebuilt from the version files; a
 * stale pending marker is finished or the hand edit taken in; working copies are taken in as versions.
 *
 * @example
 * const { actions, remaining } = await repairStore('data/documents'); // remaining: [] when whole again
 */
export async function repairStore(root: string, options: CheckOptions = {}): Promise<RepairResult> {
  const folder = resolve(root);
  const stateRoot = resolve(options.stateRoot ?? join(folder, '.tollgate'));
  const actions: string[] = [];
  const before = checkStore(folder, options);
  const documents = join(stateRoot, 'documents');
  const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}`;
  const aside = (path: string) => {
    const to = join(stateRoot, 'lost+found', stamp, relative(stateRoot, path));
    moveAside(path, to);
    actions.push(`moved ${relative(folder, path)} to ${relative(folder, to)}`);
  };
  // Moves happen under the store's lock, so a running server's write in progress is never taken for an orphan.
  await new FileLock(join(stateRoot, 'lock'), DEFAULT_LOCK_TIMEOUT_MS).hold(() => {
    for (const finding of before) {
      const path = join(folder, finding.file);
      if (finding.code === 'ORPHAN_VERSION' && existsSync(path)) aside(path);
    }
    for (const entry of safeReaddir(documents)) {
      const dir = join(documents, entry);
      const indexPath = join(dir, 'index.json');
      if (!isDir(dir) || readIndex(indexPath).ok) continue;
      const whole = versionFileSequences(dir).filter((s) => readVersionFile(join(dir, 'versions', `${s}.json`)).ok);
      if (whole.length > 0) continue; // rebuilt by the open below
      // Nothing can rebuild it: the index and every version file are kept in lost+found, and the working
      // copy starts a new history.
      if (existsSync(indexPath)) aside(indexPath);
      if (existsSync(join(dir, 'versions'))) aside(join(dir, 'versions'));
      if (existsSync(join(dir, 'pending.json'))) aside(join(dir, 'pending.json'));
    }
  });
  // Hand edits are taken in as serve takes them in: one that does not load is kept as a rejected version, never run.
  const store = await FolderDocumentStore.open(folder, { watch: false, ...options, validate: options.validate ?? loadProblems });
  try {
    for (const p of store.problems()) if (p.code === 'INDEX_REBUILT') actions.push(`rebuilt ${p.message}`);
  } finally {
    await store.close();
  }
  // A rebuilt index leaves out damaged version files: they are strays now, and go to lost+found too.
  const strays = checkStore(folder, options).filter((f) => f.code === 'ORPHAN_VERSION');
  if (strays.length > 0) {
    await new FileLock(join(stateRoot, 'lock'), DEFAULT_LOCK_TIMEOUT_MS).hold(() => {
      for (const f of strays) if (existsSync(join(folder, f.file))) aside(join(folder, f.file));
    });
  }
  const remaining = checkStore(folder, options);
  const rejected = new Set(remaining.filter((f) => f.code === 'WORKING_COPY_REJECTED').map((f) => f.id));
  for (const f of before) {
    if (f.code === 'STALE_PENDING') actions.push(`settled ${f.file}`);
    if (f.code === 'WORKING_COPY_DIFFERS')
      actions.push(rejected.has(f.id) ? `kept ${f.file} as a rejected version: it does not load` : `took in ${f.file}`);
    if (f.code === 'TEMP_FILE') actions.push(`removed ${f.file}`);
  }
  return { actions, remaining };
}

function readIndex(path: string): Read<FolderIndex> {
  const read = readBytes(path);
  return read.ok ? decodeIndex(read.value) : read;
}

function* tempFiles(dir: string): Generator<string> {
  for (const entry of safeReaddir(dir)) {
    const path = join(dir, entry);
    if (entry === 'lost+found') continue;
    if (isTempFile(entry)) yield path;
    else if (isDir(path)) yield* tempFiles(path);
  }
}

function* workingCopies(folder: string, stateRoot: string): Generator<{ id: string; path: string }> {
  const walk = function* (dir: string): Generator<{ id: string; path: string }> {
    for (const entry of safeReaddir(dir)) {
      const path = join(dir, entry);
      if (entry.startsWith('.') || path === stateRoot) continue;
      const stat = lstatSync(path);
      if (stat.isDirectory()) yield* walk(path);
      else if (stat.isFile()) {
        const id = relative(folder, path).split(sep).join('/');
        if (!idProblem(id)) yield { id, path };
      }
    }
  };
  yield* walk(folder);
}

function isDir(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
