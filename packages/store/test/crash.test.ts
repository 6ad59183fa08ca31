// The crash test (docs/store.md, "Invariants"): a child process saving, activating and reverting versions of
// two documents in a loop is killed with SIGKILL at random moments, 50 times, on one folder. Each time
// the store reopens, every stored version reads back whole, the running version is one that was
// stored, sequences strictly increase, every save the child reported is there, and the next save works.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { isTempFile } from '../src/atomic-file.ts';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { CRASH_DOCS, crashText, isCrashText } from './fixtures/crash-texts.ts';
import { LineReader, seededRandom, sha256, sleep, spawnFixture, useTempDirs } from './helpers.ts';

const { tempDir } = useTempDirs();
const KILLS = 50;

function tempFilesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (isTempFile(entry.split('/').at(-1) ?? '')) found.push(entry);
  }
  return found;
}

it(`keeps every version whole through ${KILLS} SIGKILLs of a writing process`, { timeout: 300_000 }, async () => {
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  const rand = seededRandom(seed);
  const where = `(seed ${seed}; rerun with CRASH_SEED=${seed})`;
  const root = tempDir();
  const stateRoot = join(root, '.tollgate');
  const started = Date.now();
  let next = 1;
  let savesSeen = 0;

  for (let kill = 1; kill <= KILLS; kill++) {
    const child = spawnFixture('crash-writer.ts', [root, String(next)]);
    const reader = new LineReader(child);
    expect(await reader.next(), `the child starts ${where}\n${reader.stderr}`).toBe('ready');
    if (kill % 2 === 0) {
      await sleep(5 + Math.floor(rand() * 76));
    } else {
      const lines = 1 + Math.floor(rand() * 40);
      for (let i = 0; i < lines; i++)
        expect(await reader.next(), `the child is still saving ${where}\n${reader.stderr}`).toMatch(/^saved /);
    }
    child.kill('SIGKILL');
    const exit = await reader.exited;
    expect(exit.signal, `the child died of the kill, not of an error ${where}\n${reader.stderr}`).toBe('SIGKILL');

    // The last sequence the child reported stored, per document.
    const reported = new Map<string, number>();
    for (const line of reader.lines) {
      const m = /^saved (\S+) (\d+)$/.exec(line);
      if (m) reported.set(m[1] as string, Number(m[2]));
    }
    savesSeen += reported.size === 0 ? 0 : reader.lines.length - 1;

    const store = await FolderDocumentStore.open(root, { watch: false, maxVersionsPerDocument: 20 });
    try {
      expect(tempFilesUnder(stateRoot), `temp files in the state folder after open ${where}`).toEqual([]);
      for (const id of CRASH_DOCS) {
        const history = await store.history(id);
        if (history.length === 0) {
          expect(reported.has(id), `${id} lost every version ${where}`).toBe(false);
          continue;
        }
        const sequences = history.map((v) => v.sequence);
        for (let i = 1; i < sequences.length; i++) {
          expect(sequences[i] as number, `${id} sequences strictly increase ${where}`).toBeGreaterThan(sequences[i - 1] as number);
        }
        for (const v of history) {
          const read = await store.getVersion(id, v.sequence);
          expect(read, `${id} version ${v.sequence} reads back after kill ${kill} ${where}`).toBeDefined();
          const text = read?.text ?? '';
          expect(sha256(text), `${id} version ${v.sequence} is whole ${where}`).toBe(v.digest);
          expect(Buffer.byteLength(text), `${id} version ${v.sequence} bytes ${where}`).toBe(v.bytes);
          expect(isCrashText(id, text), `${id} version ${v.sequence} is a text the child wrote ${where}`).toBe(true);
          expect(v.author.kind, `${id} version ${v.sequence} came from a save, not from a working copy ${where}`).not.toBe('external');
        }
        const running = history.filter((v) => v.running);
        expect(running.length, `${id} has exactly one running version ${where}`).toBe(1);
        const current = await store.get(id);
        expect(current?.sequence).toBe(running[0]?.sequence);
        expect(sequences).toContain(current?.sequence);
        expect(readFileSync(join(root, ...id.split('/')), 'utf8'), `${id} working copy holds the running text ${where}`).toBe(
          current?.text,
        );
        const last = reported.get(id);
        if (last !== undefined)
          expect(sequences.at(-1) as number, `${id} keeps every save the child reported ${where}`).toBeGreaterThanOrEqual(last);
      }

      // The next save still works.
      next += 1000;
      const id = CRASH_DOCS[kill % 2] as string;
      const running = await store.get(id);
      const saved = await store.save({
        id,
        text: crashText(id, next),
        author: { kind: 'person', label: 'parent' },
        reason: `after kill ${kill}`,
        basedOn: running?.sequence ?? null,
      });
      expect(await store.get(id)).toMatchObject({ sequence: saved.sequence, text: crashText(id, next) });
      next += 1;
    } finally {
      await store.close();
    }
    expect(existsSync(join(stateRoot, 'lock')), `the lock is released ${where}`).toBe(false);
  }
  const seconds = (Date.now() - started) / 1000;
  expect(savesSeen, `the children saved something ${where}`).toBeGreaterThan(KILLS);
  // About 26 s on a quiet machine; a loaded one may take several times that (each child starts tsx).
  expect(seconds).toBeLessThan(240);
});
