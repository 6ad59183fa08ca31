// Reading a folder store's folder again (at open, on a change, on rescan), under its lock: every index
// read or rebuilt and checked, a write a crash cut short finished, and every working copy edited by hand
// taken in as a version authored `external` (or a rejected one, when it does not load). docs/store.md.
import { existsSync, lstatSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeFileAtomic } from './atomic-file.ts';
import { digestOf } from './digest.ts';
import { planSave } from './document-index.ts';
import type { FolderFiles } from './folder-files.ts';
import type { FolderLayout } from './folder-layout.ts';
import {
  decodePending,
  encodeIndex,
  type FolderIndex,
  idOfDir,
  type PendingMarker,
  safeReaddir,
  versionFileSequences,
} from './store-format.ts';
import { type DocumentSave, StoreError, type StoreProblem } from './types.ts';

const EXTERNAL = { kind: 'external', label: 'working copy' } as const;

/** What a scan reads with and judges by. */
export interface FolderScan {
  readonly layout: FolderLayout;
  readonly files: FolderFiles;
  readonly maxDocumentBytes: number;
  /** Whether a working copy loads: its problems, empty when it does. */
  readonly validate?: (id: string, text: string) => string[];
  readonly now: () => Date;
}

/**
 * Reads the folder; the caller holds the lock. Returns the ids that gained a version and every problem
 * found. At open (`opening`), an index that cannot be settled refuses the open; later, it is reported.
 */
export function scanFolder(scan: FolderScan, opening: boolean): { changed: string[]; problems: StoreProblem[] } {
  const { layout, files } = scan;
  const problems: StoreProblem[] = [];
  const changed: string[] = [];
  files.damage.clear();
  layout.cleanTemps(layout.stateRoot);
  // Every document the state folder knows: its index read (or rebuilt) and checked before anything is written.
  const known = new Set<string>();
  const unsettled = new Set<string>();
  for (const entry of safeReaddir(join(layout.stateRoot, 'documents'))) {
    const dir = join(layout.stateRoot, 'documents', entry);
    if (!lstatSync(dir).isDirectory()) continue;
    let index: FolderIndex | undefined;
    try {
      index = files.settleIndex(dir, problems);
    } catch (err) {
      if (opening || !(err instanceof StoreError)) throw err;
      problems.push({ id: idOfDir(entry), code: 'DAMAGED_INDEX', message: err.message });
      unsettled.add(idOfDir(entry));
      continue;
    }
    if (!index) continue;
    known.add(index.id);
    checkDocument(scan, dir, index, problems);
    finishPending(scan, index);
  }
  for (const { id, path } of layout.workingCopies(problems)) {
    if (takeInWorkingCopy(scan, id, path, unsettled, problems)) changed.push(id);
  }
  for (const id of known) {
    const index = files.readIndex(id);
    if (index && index.running !== null && !existsSync(layout.workingPath(id))) {
      problems.push({
        id,
        code: 'MISSING_WORKING_COPY',
        message: `${id} has no working copy in the folder; version ${index.running} keeps running`,
      });
    }
  }
  return { changed: [...new Set(changed)], problems };
}

/** A working copy whose text is not the running version's becomes a version; true when it did. */
function takeInWorkingCopy(scan: FolderScan, id: string, path: string, unsettled: Set<string>, problems: StoreProblem[]): boolean {
  const { layout, files } = scan;
  const size = lstatSync(path).size;
  if (size > scan.maxDocumentBytes) {
    problems.push({
      id,
      code: 'too_large',
      message: `${id} is ${size} bytes, over the limit of ${scan.maxDocumentBytes}; it was not read and the version before keeps running`,
    });
    return false;
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path));
  } catch {
    problems.push({ id, code: 'unreadable', message: `${id} is not UTF-8 text; it was not read` });
    return false;
  }
  if (unsettled.has(id)) return false; // its index is damaged and reported above; nothing is written over it
  // An index rebuilt here was settled by the loop over the state folder already: nothing new to report.
  const index = files.indexForWrite(id, []);
  const digest = digestOf(text);
  const running = index.versions.find((v) => v.sequence === index.running);
  if (running?.digest === digest) return false;
  if (index.versions.some((v) => v.rejected && v.digest === digest && v.sequence === index.next - 1)) return false;
  const reasons = scan.validate?.(id, text) ?? [];
  const save: DocumentSave = { id, text, author: EXTERNAL, reason: 'the working copy was edited', activate: true };
  if (reasons.length > 0) save.rejected = reasons;
  const planned = planSave(index, save, scan.now());
  // The working copy already holds this text: the version file and the index alone record it.
  const after = files.storeVersion(id, index, planned.index, planned.version, text);
  writeFileAtomic(layout.indexPath(id), encodeIndex(after));
  rmSync(layout.pendingPath(id), { force: true });
  return true;
}

/**
 * A pending marker left by a crash between the index and the working copy: when the working copy still
 * holds the text it had then (or is missing and had none), the write is finished. Otherwise the working
 * copy was edited since, and the scan of working copies takes it in as a version: it is never discarded.
 */
function finishPending(scan: FolderScan, index: FolderIndex): void {
  const { layout, files } = scan;
  const path = layout.pendingPath(index.id);
  let marker: PendingMarker | undefined;
  try {
    marker = decodePending(readFileSync(path));
  } catch {
    return;
  }
  const running = index.versions.find((v) => v.sequence === index.running);
  const now = files.workingDigest(index.id);
  if (!running || marker === undefined) {
    rmSync(path, { force: true });
    return;
  }
  if (now === running.digest) {
    rmSync(path, { force: true });
    return;
  }
  const stale = marker.workingDigest !== undefined && (marker.workingDigest ?? undefined) === now;
  if (!stale) return; // a hand edit: the working copies' scan makes it a version and drops the marker
  const file = files.verifiedVersion(index, running);
  if (!file.ok) return; // reported by checkDocument; the working copy is left as it is
  writeFileAtomic(layout.workingPath(index.id), file.value.text);
  rmSync(path, { force: true });
}

/** Reports what is wrong in one document's state folder: its running version's file, orphan version files. */
function checkDocument(scan: FolderScan, dir: string, index: FolderIndex, problems: StoreProblem[]): void {
  const { layout, files } = scan;
  const running = index.versions.find((v) => v.sequence === index.running);
  if (running) {
    const file = files.verifiedVersion(index, running);
    if (!file.ok) problems.push(files.damagedVersion(index.id, running.sequence, file).problem);
  }
  const named = new Set(index.versions.map((v) => v.sequence));
  for (const s of versionFileSequences(dir)) {
    if (named.has(s)) continue;
    problems.push({
      id: index.id,
      code: 'ORPHAN_VERSION',
      message: `${relative(layout.stateRoot, join(dir, 'versions', `${s}.json`))} is a version file no index names (left by a crash); \`tollgate store repair\` moves it to lost+found`,
    });
  }
}
