// The concurrency test (docs/store.md, "The lock"): 20 edits based on the same version, submitted at once
// through two store instances on one folder, across two real processes and within one: exactly one
// is Applied, the rest are Conflict, the history gains exactly one version, nothing is lost or
// duplicated, and no lock file is left behind.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EditSeam, type EditStatus } from '../src/edits/edit-seam.ts';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { type DocumentStore, StoreError } from '../src/types.ts';
import { CONCURRENT_DOC as DOC, textValidator } from './fixtures/concurrent-texts.ts';
import { ANA, LineReader, sha256, spawnFixture, useTempDirs } from './helpers.ts';

const { tempDir, onCleanup } = useTempDirs();

interface Submitted {
  content: string;
  status: EditStatus;
  sequence: number | null;
  reasons: string[];
}

async function openStore(root: string): Promise<FolderDocumentStore> {
  const store = await FolderDocumentStore.open(root, { watch: false });
  onCleanup(() => store.close());
  return store;
}

/** Starts both children, lets them go at the same moment, and gathers their 20 outcomes. */
async function submitFromTwoProcesses(root: string, round: number, basedOn: number | 'free'): Promise<Submitted[]> {
  const startFile = join(tempDir('tollgate-start-'), 'go');
  const children = ['left', 'right'].map((side) => {
    const child = spawnFixture('concurrent-editor.ts', [root, startFile, `${side}-${round}`, String(basedOn)]);
    return { child, reader: new LineReader(child) };
  });
  for (const { reader } of children) expect(await reader.next(), reader.stderr).toBe('ready');
  writeFileSync(startFile, 'go');
  const outcomes: Submitted[] = [];
  for (const { reader } of children) {
    const line = await reader.next(30_000);
    expect(line, reader.stderr).toBeDefined();
    outcomes.push(...(JSON.parse(line as string) as { outcomes: Submitted[] }).outcomes);
    expect((await reader.exited).code, reader.stderr).toBe(0);
  }
  return outcomes;
}

/** Exactly one Applied, the rest Conflict, and the history gains that one version and nothing else. */
async function expectOneApplied(store: DocumentStore, root: string, base: number, before: number[], outcomes: Submitted[]): Promise<void> {
  expect(outcomes).toHaveLength(20);
  expect(new Set(outcomes.map((o) => o.content)).size).toBe(20);
  const applied = outcomes.filter((o) => o.status === 'applied');
  const conflicts = outcomes.filter((o) => o.status === 'conflict');
  expect(applied).toHaveLength(1);
  expect(conflicts).toHaveLength(19);
  for (const c of conflicts) {
    expect(c.sequence).toBeNull();
    expect(c.reasons).toHaveLength(1);
    expect(c.reasons[0]).toMatch(new RegExp(`^${DOC.replace(/\./g, '\\.')} changed since version ${base}: version \\d+ is running`));
  }
  const winner = applied[0] as Submitted;
  const history = await store.history(DOC);
  expect(history.map((v) => v.sequence)).toEqual([...before, winner.sequence]);
  const added = history.at(-1);
  expect(added).toMatchObject({ sequence: Math.max(...before) + 1, basedOn: base, running: true, digest: sha256(winner.content) });
  // Nothing lost or duplicated: only the winner's text was stored, once.
  const texts = await Promise.all(history.map(async (v) => (await store.getVersion(DOC, v.sequence))?.text));
  const submitted = new Set(outcomes.map((o) => o.content));
  expect(texts.filter((t) => t !== undefined && submitted.has(t))).toEqual([winner.content]);
  expect(await store.get(DOC)).toMatchObject({ sequence: winner.sequence, text: winner.content });
  expect(readFileSync(join(root, ...DOC.split('/')), 'utf8')).toBe(winner.content);
  expect(existsSync(join(root, '.tollgate', 'lock'))).toBe(false);
}

describe('20 edits based on the same version', () => {
  it('across two processes, each with its own store on the folder: one Applied, 19 Conflict (3 rounds)', { timeout: 60_000 }, async () => {
    const root = tempDir();
    const store = await openStore(root);
    await store.save({ id: DOC, text: 'name: support\n', author: ANA, reason: 'first' });
    for (let round = 1; round <= 3; round++) {
      const before = (await store.history(DOC)).map((v) => v.sequence);
      const base = (await store.get(DOC))?.sequence as number;
      const outcomes = await submitFromTwoProcesses(root, round, base);
      await expectOneApplied(store, root, base, before, outcomes);
    }
    expect((await store.history(DOC)).map((v) => v.sequence)).toEqual([1, 2, 3, 4]);
  });

  it('within one process, through two store instances on one folder: one Applied, 19 Conflict', async () => {
    const root = tempDir();
    const first = await openStore(root);
    const second = await openStore(root);
    await first.save({ id: DOC, text: 'name: support\n', author: ANA, reason: 'first' });
    const seams = [first, second].map((store) => new EditSeam({ store, kindOf: () => 'text', validators: { text: textValidator } }));
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const content = `in-process edit ${i}\n`;
        const outcome = await (seams[i % 2] as EditSeam).submit({
          kind: 'document',
          document: DOC,
          content,
          author: { kind: 'model', label: `instance-${i % 2}` },
          reason: 'concurrent',
          basedOn: 1,
        });
        return {
          content,
          status: outcome.status,
          sequence: outcome.version?.sequence ?? null,
          reasons: outcome.reasons.map((r) => r.message),
        };
      }),
    );
    await expectOneApplied(second, root, 1, [1], outcomes);
    expect(await first.history(DOC)).toEqual(await second.history(DOC));
  });

  it('within one process, straight to the stores: one save, 19 conflicts', async () => {
    const root = tempDir();
    const stores = [await openStore(root), await openStore(root)];
    await (stores[0] as FolderDocumentStore).save({ id: DOC, text: 'v1', author: ANA, reason: 'first' });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        (stores[i % 2] as FolderDocumentStore).save({ id: DOC, text: `s${i}`, author: ANA, reason: 'r', basedOn: 1 }),
      ),
    );
    const saved = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(saved).toHaveLength(1);
    expect(refused.map((r) => (r.reason instanceof StoreError ? r.reason.code : String(r.reason)))).toEqual(Array(19).fill('conflict'));
    expect((await (stores[1] as FolderDocumentStore).history(DOC)).map((v) => v.sequence)).toEqual([1, 2]);
  });
});

describe('the lock across processes', () => {
  it('loses and duplicates nothing when two processes save 20 versions at once with no basedOn', { timeout: 30_000 }, async () => {
    const root = tempDir();
    const store = await openStore(root);
    await store.save({ id: DOC, text: 'name: support\n', author: ANA, reason: 'first' });
    const outcomes = await submitFromTwoProcesses(root, 1, 'free');
    expect(outcomes.every((o) => o.status === 'applied')).toBe(true);
    const sequences = outcomes.map((o) => o.sequence as number).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: 20 }, (_, i) => i + 2));
    const history = await store.history(DOC);
    expect(history.map((v) => v.sequence)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    for (const o of outcomes) expect((await store.getVersion(DOC, o.sequence as number))?.text).toBe(o.content);
    expect(history.filter((v) => v.running)).toHaveLength(1);
    expect(existsSync(join(root, '.tollgate', 'lock'))).toBe(false);
  });

  it('counts every update of a state value made by two processes at once (an atomic counter)', { timeout: 60_000 }, async () => {
    const root = tempDir();
    const store = await openStore(root);
    const children = [spawnFixture('state-counter.ts', [root, '40']), spawnFixture('state-counter.ts', [root, '40'])];
    const readers = children.map((c) => new LineReader(c));
    for (const r of readers) expect(await r.next(30_000), r.stderr).toBe('done');
    expect(await store.readState('counts/n')).toBe(80);
  });
});
