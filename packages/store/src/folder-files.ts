// A folder store's index and version files: read and verified against their checksums, damage recorded
// (it is reported in problems until the file reads whole again), an index rebuilt from the version files
// when it is damaged or missing, and a version file written once. docs/store.md, "Invariants".
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { moveAside, writeFileAtomic, writeFileOnce } from './atomic-file.ts';
import { digestOf } from './digest.ts';
import { idProblem } from './document-id.ts';
import { type DocumentIndex, emptyIndex } from './document-index.ts';
import type { FolderLayout } from './folder-layout.ts';
import {
  decodeIndex,
  encodeIndex,
  encodeVersionFile,
  type FolderIndex,
  idOfDir,
  type Read,
  readVersionFile,
  rebuildIndex,
  sha256,
  type VersionFile,
  versionFileSequences,
} from './store-format.ts';
import { type DocumentVersion, StoreError, type StoreProblem } from './types.ts';

export class FolderFiles {
  /** Damage found by reads since the last scan, by file. */
  readonly damage = new Map<string, StoreProblem>();

  constructor(private readonly layout: FolderLayout) {}

  requireIndex(id: string): FolderIndex {
    const problem = idProblem(id);
    if (problem) throw new StoreError('invalid_id', `${JSON.stringify(id)}: ${problem}`);
    const read = this.readIndexAt(this.layout.docDir(id));
    if (!read.ok && !read.missing) throw this.damagedIndex(id, read.why);
    if (!read.ok) throw new StoreError('not_found', `no document ${id}`);
    return read.value;
  }

  /**
   * The index a write builds on: never an empty one in place of a damaged one (that would write version 1
   * over the history), and with `next` past every version file on disk, so no file is ever written twice.
   * A rebuilt index is reported in `problems`.
   */
  indexForWrite(id: string, problems: StoreProblem[]): FolderIndex {
    const dir = this.layout.docDir(id);
    const read = this.readIndexAt(dir);
    if (!read.ok && !read.missing) throw this.damagedIndex(id, read.why);
    const sequences = versionFileSequences(dir);
    if (!read.ok && sequences.length > 0) {
      const rebuilt = this.settleIndex(dir, problems);
      if (rebuilt) return rebuilt;
    }
    const index: FolderIndex = read.ok ? read.value : { ...emptyIndex(), id, files: {} };
    const highest = sequences.at(-1) ?? 0;
    return highest >= index.next ? { ...index, next: highest + 1 } : index;
  }

  readIndex(id: string): FolderIndex | undefined {
    const read = this.readIndexAt(this.layout.docDir(id));
    if (read.ok) this.damage.delete(relative(this.layout.stateRoot, this.layout.indexPath(id)));
    else if (!read.missing) this.damagedIndex(id, read.why);
    return read.ok ? read.value : undefined;
  }

  readIndexAt(dir: string): Read<FolderIndex> {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(dir, 'index.json'));
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
      return { ok: false, missing, why: missing ? 'is missing' : 'cannot be read' };
    }
    return decodeIndex(bytes);
  }

  verifiedVersion(index: FolderIndex, version: DocumentVersion): Read<VersionFile> {
    const path = this.layout.versionPath(index.id, version.sequence);
    let read = readVersionFile(path, index.files?.[version.sequence]);
    if (read.ok && read.value.version.digest !== version.digest) {
      read = { ok: false, missing: false, why: 'holds another text than the index names' };
    }
    if (!read.ok) this.damagedVersion(index.id, version.sequence, read);
    // A file restored from a backup is whole again: health stops naming it.
    else this.damage.delete(relative(this.layout.stateRoot, path));
    return read;
  }

  damagedVersion(id: string, sequence: number, read: Read<VersionFile>): StoreError & { problem: StoreProblem } {
    const rel = relative(this.layout.stateRoot, this.layout.versionPath(id, sequence));
    const why = read.ok ? '' : read.why;
    const problem: StoreProblem = {
      id,
      code: 'DAMAGED_VERSION',
      sequence,
      message: `${id} version ${sequence}: ${rel} ${why}; it is refused, never replaced. Restore the file from a backup, or activate or save another version; \`tollgate store check\` lists every damaged file`,
    };
    this.damage.set(rel, problem);
    return Object.assign(new StoreError('damaged', problem.message), { problem });
  }

  damagedIndex(id: string, why: string): StoreError {
    const rel = relative(this.layout.stateRoot, this.layout.indexPath(id));
    const message = `${id}: ${rel} ${why}; nothing was written. Run \`tollgate store repair --data DIR\` to rebuild it from the version files`;
    this.damage.set(rel, { id, code: 'DAMAGED_INDEX', message });
    return new StoreError('damaged', message);
  }

  workingDigest(id: string): string | undefined {
    try {
      return digestOf(readFileSync(this.layout.workingPath(id), 'utf8'));
    } catch {
      return undefined;
    }
  }

  /**
   * Writes a new version's file, never over an existing one; returns the index that names it, with the
   * checksums of the files before it (`before`'s: the planned index is built without them) and its own.
   */
  storeVersion(id: string, before: DocumentIndex, index: DocumentIndex, version: DocumentVersion, text: string): FolderIndex {
    const data = encodeVersionFile(version, text);
    writeFileOnce(this.layout.versionPath(id, version.sequence), data);
    const files = { ...((before as FolderIndex).files ?? {}), [version.sequence]: sha256(data) };
    return { ...index, id, files };
  }

  /**
   * The index of a document folder, rebuilt from its version files when it is damaged or missing (the
   * damaged one is moved to lost+found, never deleted). Throws `damaged` when no version file can rebuild it.
   */
  settleIndex(dir: string, problems: StoreProblem[]): FolderIndex | undefined {
    const layout = this.layout;
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
    const id = files[0]?.version.id ?? idOfDir(relative(join(layout.stateRoot, 'documents'), dir));
    const rel = relative(layout.stateRoot, path);
    const rebuilt = rebuildIndex(id, files, this.workingDigest(id));
    if (!rebuilt) {
      throw new StoreError(
        'damaged',
        `${rel} ${read.ok ? '' : read.why}, and no whole version file can rebuild it; nothing was written. Run \`tollgate store repair --data DIR\` (it moves the damaged files to lost+found and takes the working copy in as a new version)`,
      );
    }
    if (!read.missing) moveAside(path, layout.lostAndFound(path));
    writeFileAtomic(path, encodeIndex({ ...rebuilt, files: shas }));
    // A first save cut short before its working copy was written: the working copy is created, never replaced.
    const running = files.find((f) => f.version.sequence === rebuilt.running);
    if (running && !existsSync(layout.workingPath(id)) && !idProblem(id)) {
      try {
        layout.checkNoLinkOut(id);
        writeFileAtomic(layout.workingPath(id), running.text);
      } catch {
        // A path the folder cannot hold: reported as a missing working copy instead.
      }
    }
    problems.push({
      id,
      code: 'INDEX_REBUILT',
      message: `${rel} ${read.missing ? 'was missing' : `${read.why}; it was moved to lost+found`} and was rebuilt from ${files.length} version file(s)${files.length < sequences.length ? `; ${sequences.length - files.length} damaged version file(s) left out` : ''}; version ${rebuilt.running ?? 'none'} runs`,
    });
    return { ...rebuilt, files: shas };
  }
}
