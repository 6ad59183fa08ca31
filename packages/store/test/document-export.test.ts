// A document's whole history moves between stores exactly (document-export.ts): folder → PostgreSQL → folder
// keeps every version's sequence, marks, author, time and text, and the revert target; an id with versions and a
// damaged export are refused with nothing written.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocumentExport } from '../src/document-export.ts';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { MemoryDocumentStore } from '../src/memory-store.ts';
import type { DocumentStore } from '../src/types.ts';
import { ANA, ASSISTANT, DEV, useTempDirs } from './helpers.ts';
import { POSTGRES_UNREACHABLE } from './postgres-fixture.ts';
import { usePostgresStores } from './postgres-stores.ts';

const { tempDir, onCleanup } = useTempDirs();

/** A folder store that rejects a text starting with "bad", as a validator refuses a document that does not load. */
async function folderStore(maxVersionsPerDocument = 100): Promise<FolderDocumentStore> {
  const store = await FolderDocumentStore.open(join(tempDir(), 'documents'), {
    watch: false,
    maxVersionsPerDocument,
    validate: (_id, text) => (text.startsWith('bad') ? ['does not load'] : []),
  });
  onCleanup(() => store.close());
  return store;
}

/** Everything a reader can ask of a document's history. */
async function observed(store: DocumentStore, id: string) {
  const history = await store.history(id);
  const texts = await Promise.all(history.map(async (v) => (await store.getVersion(id, v.sequence))?.text));
  return { history, texts, running: (await store.get(id))?.sequence, revertTarget: await store.revertTarget(id) };
}

async function copyAll(from: DocumentStore & { exportDocument(id: string): Promise<DocumentExport> }, to: FolderOrOther): Promise<void> {
  for (const id of await from.list()) await to.importDocument(id, await from.exportDocument(id));
}
type FolderOrOther = { importDocument(id: string, exported: DocumentExport): Promise<void> };

/** A history with a rejected version, a revert, a hand edit of the working copy and a version that never ran. */
async function richHistory(store: FolderDocumentStore, id: string): Promise<void> {
  await store.save({ id, text: 'one\n', author: ANA, reason: 'first' });
  await store.save({ id, text: 'two\n', author: ASSISTANT, reason: 'second', activate: false });
  await store.activate(id, 2);
  await store.save({ id, text: 'bad three\n', author: DEV, reason: 'broken', rejected: ['does not load'] });
  await store.revert(id);
  writeFileSync(join(store.root, id), 'edited by hand\n');
  await store.rescan();
  writeFileSync(join(store.root, id), 'bad edit by hand\n');
  await store.rescan();
}

describe('exact history between stores', () => {
  it('a folder history exports and imports into a memory store and another folder, identical', async () => {
    const source = await folderStore();
    await richHistory(source, 'policies/a.policy.json');
    const before = await observed(source, 'policies/a.policy.json');
    expect(before.history.map((v) => [v.sequence, v.author.kind, v.running, v.rejected])).toEqual([
      [1, 'person', false, false],
      [2, 'model', false, false],
      [3, 'developer', false, true],
      [4, 'external', true, false],
      [5, 'external', false, true],
    ]);
    const memory = new MemoryDocumentStore();
    await copyAll(source, memory);
    expect(await observed(memory, 'policies/a.policy.json')).toEqual(before);
    const target = await folderStore();
    await copyAll(memory, target);
    expect(await observed(target, 'policies/a.policy.json')).toEqual(before);
    expect(await target.exportDocument('policies/a.policy.json')).toEqual(await source.exportDocument('policies/a.policy.json'));
    // The import wrote the working copy as a save does: reading the folder again takes nothing in.
    expect(await target.rescan()).toEqual([]);
    expect(target.problems()).toEqual([]);
  });

  it('a pruned history keeps its next sequence and what a revert returns to', async () => {
    const source = await folderStore(3);
    for (let i = 1; i <= 6; i++) await source.save({ id: 'x.yaml', text: `v${i}\n`, author: ANA, reason: `r${i}` });
    const target = await folderStore(3);
    await copyAll(source, target);
    expect(await observed(target, 'x.yaml')).toEqual(await observed(source, 'x.yaml'));
    expect((await target.save({ id: 'x.yaml', text: 'v7\n', author: ANA, reason: 'r7' })).sequence).toBe(7);
  });

  it('refuses an id that already has versions, and a damaged export, writing nothing', async () => {
    const source = await folderStore();
    await source.save({ id: 'a.yaml', text: 'a: 1\n', author: ANA, reason: 'r' });
    const exported = await source.exportDocument('a.yaml');
    const target = await folderStore();
    await target.save({ id: 'a.yaml', text: 'other\n', author: ANA, reason: 'r' });
    const listing = readdirSync(target.stateRoot, { recursive: true }).sort();
    await expect(target.importDocument('a.yaml', exported)).rejects.toMatchObject({ code: 'conflict' });
    const damaged = { ...exported, texts: { 1: 'a: 2\n' } };
    await expect(target.importDocument('b.yaml', { ...damaged, id: 'b.yaml' })).rejects.toMatchObject({ code: 'damaged' });
    await expect(target.importDocument('b.yaml', damaged)).rejects.toMatchObject({ code: 'damaged' });
    expect(readdirSync(target.stateRoot, { recursive: true }).sort()).toEqual(listing);
    expect(await target.list()).toEqual(['a.yaml']);
    const memory = new MemoryDocumentStore();
    await expect(memory.importDocument('a.yaml', damaged)).rejects.toMatchObject({ code: 'damaged' });
    await expect(memory.exportDocument('a.yaml')).rejects.toMatchObject({ code: 'not_found' });
  });
});

type Op =
  | { op: 'save'; doc: number; text: string; activate: boolean; rejected: boolean }
  | { op: 'activate'; doc: number; sequence: number }
  | { op: 'revert'; doc: number }
  | { op: 'hand'; doc: number; text: string };

const ops: fc.Arbitrary<Op[]> = fc.array(
  fc.oneof(
    fc.record({
      op: fc.constant('save' as const),
      doc: fc.nat(1),
      text: fc.string({ maxLength: 12, unit: 'grapheme' }),
      activate: fc.boolean(),
      rejected: fc.boolean(),
    }),
    fc.record({ op: fc.constant('activate' as const), doc: fc.nat(1), sequence: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ op: fc.constant('revert' as const), doc: fc.nat(1) }),
    fc.record({ op: fc.constant('hand' as const), doc: fc.nat(1), text: fc.constantFrom('hand\n', 'bad hand\n', 'other\n') }),
  ),
  { minLength: 1, maxLength: 12 },
);

async function apply(store: FolderDocumentStore, op: Op): Promise<void> {
  const id = ['a.policy.json', 'sheets/b.rules.yaml'][op.doc] as string;
  try {
    if (op.op === 'save') {
      await store.save({
        id,
        text: op.text,
        author: op.doc === 0 ? ANA : ASSISTANT,
        reason: `r ${op.text}`,
        activate: op.activate,
        ...(op.rejected ? { rejected: ['does not load'] } : {}),
      });
    } else if (op.op === 'activate') await store.activate(id, op.sequence);
    else if (op.op === 'revert') await store.revert(id);
    else {
      const path = join(store.root, ...id.split('/'));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, op.text);
      await store.rescan();
    }
  } catch (err) {
    // Refusals (nothing to revert, no such version, a rejected one, no folder yet) are part of the sequence.
    if (!(err instanceof Error && 'code' in err)) throw err;
  }
}

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)('folder → PostgreSQL → folder', () => {
  const postgres = usePostgresStores('export');

  it('keeps every history of random saves, activations, reverts and hand edits identical', async () => {
    await fc.assert(
      fc.asyncProperty(ops, async (sequence) => {
        const source = await folderStore(6);
        for (const op of sequence) await apply(source, op);
        const database = await postgres.open();
        await copyAll(source, database);
        const target = await folderStore(6);
        await copyAll(database, target);
        const ids = await source.list();
        expect(await database.list()).toEqual(ids);
        expect(await target.list()).toEqual(ids);
        for (const id of ids) {
          const expected = await observed(source, id);
          expect(await observed(database, id)).toEqual(expected);
          expect(await observed(target, id)).toEqual(expected);
          expect(await target.exportDocument(id)).toEqual(await source.exportDocument(id));
        }
      }),
      { numRuns: 25 },
    );
  }, 50_000);

  it('refuses an id with versions and a damaged export in the database, writing nothing', async () => {
    const source = await folderStore();
    await source.save({ id: 'a.yaml', text: 'a: 1\n', author: ANA, reason: 'r' });
    const exported = await source.exportDocument('a.yaml');
    const database = await postgres.open();
    await database.importDocument('a.yaml', exported);
    const generation = await database.changeGeneration();
    await expect(database.importDocument('a.yaml', exported)).rejects.toMatchObject({ code: 'conflict' });
    await expect(database.importDocument('b.yaml', { ...exported, id: 'b.yaml' })).rejects.toMatchObject({ code: 'damaged' });
    const renamed = { id: 'b.yaml', index: { ...exported.index, versions: exported.index.versions.map((v) => ({ ...v, id: 'b.yaml' })) } };
    await expect(database.importDocument('b.yaml', { ...renamed, texts: { 1: 'a: 2\n' } })).rejects.toMatchObject({ code: 'damaged' });
    await database.importDocument('b.yaml', { ...renamed, texts: exported.texts });
    expect(await database.list()).toEqual(['a.yaml', 'b.yaml']);
    expect(await database.changeGeneration()).toBe(generation + 1);
    const { pool } = await postgres.schema();
    expect((await pool.query('SELECT count(*)::int AS n FROM document_versions')).rows[0].n).toBe(2);
  });
});
