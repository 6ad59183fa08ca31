// Watches every folder of a folder store's tree (not recursive watching, which on Linux loses files
// replaced by a rename): a change anywhere schedules one rescan once the folder has been quiet for the debounce.
import { type FSWatcher, lstatSync, watch } from 'node:fs';
import { join } from 'node:path';
import { safeReaddir } from './store-format.ts';
import { StoreError } from './types.ts';

export class FolderWatch {
  private readonly watchers = new Map<string, FSWatcher>();
  private watching = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly root: string,
    private readonly stateRoot: string,
    private readonly rescan: () => Promise<unknown>,
    private readonly debounceMs: number,
  ) {}

  start(): void {
    this.watching = true;
    this.sync();
  }

  /** Watches the folders the tree holds now (after a scan: new folders gained, removed ones dropped). */
  sync(): void {
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

  close(): void {
    this.watching = false;
    if (this.timer) clearTimeout(this.timer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
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
    }, this.debounceMs);
  }
}
