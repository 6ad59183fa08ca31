// Preconditions on writes (docs/store.md, "The stores"): save, activate, revert, writeState and updateState
// with `ifMatch` write only while the document's newest stored sequence is the one given, checked with the
// write, in every store; of writers racing from one read exactly one writes; guarded updates of different
// records of one state value, racing, lose none.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { MemoryDocumentStore } from '../src/memory-store.ts';
import { type DocumentStore, StoreError } from '../src/types.ts';
import { ANA, useTempDirs } from './helpers.ts';
import { POSTGRES_UNREACHABLE } from './postgres-fixture.ts';
import { usePostgresStores } from './postgres-stores.ts';

const { tempDir, onCleanup } = useTempDirs();
const ID = 'policies/refunds.policy.json';
const postgres = usePostgresStores('preconditions');

const stores: [string, () => Promise<DocumentStore>, string?][] = [
  ['memory', async () => new MemoryDocumentStore()],
  [
    'folder',
    async () => {
      const store = await FolderDocumentStore.open(tempDir(), { watch: false });
      onCleanup(() => store.close());
      return store;
    },
  ],
  ['PostgreSQL', () => postgres.open(), POSTGRES_UNREACHABLE],
];

async function refusal(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(StoreError);
    return err as StoreError;
  }
  throw new Error('expected the store to refuse');
}

const save = (store: DocumentStore, text: string, ifMatch?: number | null) =>
  store.save({ id: ID, text, author: ANA, reason: text, ...(ifMatch === undefined ? {} : { ifMatch }) });

for (const [name, open, skip] of stores) {
  describe.skipIf(skip !== undefined)(`the ${name} store${skip ? ` (skipped: ${skip})` : ''}`, () => {
    it('saves while ifMatch names the newest version, and refuses a stale one with the current tag, writing nothing', async () => {
      const store = await open();
      await save(store, 'one', null);
      expect((await refusal(save(store, 'again', null))).details).toEqual({ current: 1 });
      await save(store, 'two', 1);
      const stale = await refusal(save(store, 'three', 1));
      expect(stale.code).toBe('precondition_failed');
      expect(stale.details).toEqual({ current: 2 });
      expect((await store.history(ID)).map((v) => v.sequence)).toEqual([1, 2]);
    });

    it('activates and reverts only while ifMatch holds', async () => {
      const store = await open();
      await save(store, 'one');
      await save(store, 'two');
      expect((await refusal(store.activate(ID, 1, { ifMatch: 1 }))).code).toBe('precondition_failed');
      expect((await store.get(ID))?.sequence).toBe(2);
      await store.activate(ID, 1, { ifMatch: 2 });
      expect((await refusal(store.revert(ID, { ifMatch: 3 }))).code).toBe('precondition_failed');
      expect((await store.get(ID))?.sequence).toBe(1);
      await store.revert(ID, { ifMatch: 2 });
      expect((await store.get(ID))?.sequence).toBe(2);
    });

    it('writes state guarded by a document only while its tag holds', async () => {
      const store = await open();
      await save(store, 'one');
      expect((await refusal(store.writeState('lifecycle', { a: 1 }, { ifMatch: { id: ID, newest: 7 } }))).code).toBe('precondition_failed');
      expect(await store.readState('lifecycle')).toBeUndefined();
      await store.writeState('lifecycle', { a: 2 }, { ifMatch: { id: ID, newest: 1 } });
      expect(await store.readState('lifecycle')).toEqual({ a: 2 });
    });

    it('updates state guarded by a document only while its tag holds, from the value under the lock', async () => {
      const store = await open();
      await save(store, 'one');
      const add = (key: string) => (v: unknown) => ({ ...(v as Record<string, number> | undefined), [key]: 1 });
      expect((await refusal(store.updateState('lifecycle', add('a'), { ifMatch: { id: ID, newest: 7 } }))).code).toBe(
        'precondition_failed',
      );
      expect(await store.readState('lifecycle')).toBeUndefined();
      await store.updateState('lifecycle', add('a'), { ifMatch: { id: ID, newest: 1 } });
      await store.updateState('lifecycle', add('b'), { ifMatch: { id: ID, newest: 1 } });
      expect(await store.readState('lifecycle')).toEqual({ a: 1, b: 1 });
    });

    it('of guarded updates of different records racing, none is lost', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 2, maxLength: 10 }), async (keys) => {
          const store = await open();
          await save(store, 'base');
          await Promise.all(
            keys.map((key, i) =>
              store.updateState(
                'lifecycle',
                (v) => ({ ...(v as Record<string, number[]> | undefined), [key]: [...((v as Record<string, number[]>)?.[key] ?? []), i] }),
                { ifMatch: { id: ID, newest: 1 } },
              ),
            ),
          );
          const stored = (await store.readState('lifecycle')) as Record<string, number[]>;
          expect(
            Object.values(stored)
              .flat()
              .sort((x, y) => x - y),
          ).toEqual(keys.map((_, i) => i));
        }),
        { numRuns: 10 },
      );
    });

    it('of any number of writers racing from one read, exactly one saves', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 2, max: 8 }), async (writers) => {
          const store = await open();
          await save(store, 'base');
          const results = await Promise.allSettled(Array.from({ length: writers }, (_, i) => save(store, `writer ${i}`, 1)));
          expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
          for (const r of results) if (r.status === 'rejected') expect((r.reason as StoreError).code).toBe('precondition_failed');
          expect(await store.history(ID)).toHaveLength(2);
        }),
        { numRuns: 10 },
      );
    });
  });
}
