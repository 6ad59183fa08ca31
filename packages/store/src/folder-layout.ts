// Where a folder store keeps each file (docs/store.md, "On disk"), and the checks on paths: links that
// lead out of the folder, ids inside the state folder, temporary files a crash left behind.
import { existsSync, lstatSync, realpathSync, rmSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { isTempFile } from './atomic-file.ts';
import { digestOf } from './digest.ts';
import { idProblem } from './document-id.ts';
import { safeReaddir } from './store-format.ts';
import { StoreError, type StoreProblem } from './types.ts';

/** The paths of one folder store: working copies under `root`, versions and state under `stateRoot`. */
export class FolderLayout {
  constructor(
    readonly root: string,
    readonly stateRoot: string,
    private readonly now: () => Date,
  ) {}

  /** One flat folder per document, named by the encoded id (a digest for very long ids), so no id nests in another. */
  docDir(id: string): string {
    const encoded = encodeURIComponent(id);
    return join(this.stateRoot, 'documents', encoded.length <= 200 ? encoded : `id-${digestOf(id)}`);
  }

  indexPath(id: string): string {
    return join(this.docDir(id), 'index.json');
  }

  versionPath(id: string, sequence: number): string {
    return join(this.docDir(id), 'versions', `${sequence}.json`);
  }

  pendingPath(id: string): string {
    return join(this.docDir(id), 'pending.json');
  }

  workingPath(id: string): string {
    return join(this.root, ...id.split('/'));
  }

  statePath(key: string): string {
    const problem = idProblem(key);
    if (problem) throw new StoreError('invalid_id', `state key ${JSON.stringify(key)}: ${problem}`);
    return `${join(this.stateRoot, 'state', ...key.split('/'))}.json`;
  }

  /** Where a damaged or stray file goes: `<state>/lost+found/<time>/<its path in the state folder>`. */
  lostAndFound(path: string): string {
    const stamp = this.now().toISOString().replace(/[:.]/g, '-');
    return join(this.stateRoot, 'lost+found', `${stamp}-${process.pid}`, relative(this.stateRoot, path));
  }

  /** Refuses an id inside the state folder, or whose path passes through a link that leads out of the folder. */
  checkNoLinkOut(id: string): void {
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

  inside(path: string): boolean {
    try {
      const real = realpathSync(path);
      const root = realpathSync(this.root);
      return real === root || real.startsWith(root + sep);
    } catch {
      return false;
    }
  }

  /** Removes the temporary files a crash left in `dir` and below (lost+found is kept as it is). */
  cleanTemps(dir: string): void {
    for (const entry of safeReaddir(dir)) {
      const path = join(dir, entry);
      if (entry === 'lost+found' && dir === this.stateRoot) continue;
      if (isTempFile(entry)) rmSync(path, { force: true });
      else if (lstatSync(path).isDirectory()) this.cleanTemps(path);
    }
  }

  /** Every working copy in the folder (hidden entries and the state folder skipped); links out and bad ids reported. */
  *workingCopies(problems: StoreProblem[]): Generator<{ id: string; path: string }> {
    const stateRel = relative(this.root, this.stateRoot);
    const walk = function* (this: FolderLayout, dir: string): Generator<{ id: string; path: string }> {
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
            problems.push({ id, code: 'LINK_OUTSIDE', message: `${id} is a link out of the folder; it is not followed` });
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
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
