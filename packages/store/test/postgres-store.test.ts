// The PostgreSQL store as several gateway nodes use it (docs/store.md, "The PostgreSQL store"): two stores on
// two pools share one schema, race each other, hear each other's writes, and survive their LISTEN
// connection being cut; texts come back byte for byte; the migrations apply once however often they run.
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestOf } from '../src/digest.ts';
import { applyDocumentMigrations, POSTGRES_DOCUMENT_MIGRATIONS } from '../src/postgres-schema.ts';
import { PostgresDocumentStore, type PostgresStoreOptions } from '../src/postgres-store.ts';
import { StoreError } from '../src/types.ts';
import { ANA, sleep, waitFor } from './helpers.ts';
import { freshSchema, POSTGRES_UNREACHABLE, type TestSchema } from './postgres-fixture.ts';

const DOC = 'policies/refunds.policy.json';

describe.skipIf(POSTGRES_UNREACHABLE !== undefined)(
  `the PostgreSQL store${POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : ''}`,
  () => {
    let schema: TestSchema;
    const pools: pg.Pool[] = [];
    const stores: PostgresDocumentStore[] = [];

    beforeAll(async () => {
      schema = await freshSchema('pgstore');
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        await applyDocumentMigrations(client);
      } finally {
        await client.end();
      }
    });

    afterAll(async () => {
      for (const store of stores) await store.close();
      for (const pool of pools) await pool.end();
      await schema.drop();
    });

    /** A node: a pool of its own on the shared schema, and a store on it. */
    async function node(options: PostgresStoreOptions = {}): Promise<PostgresDocumentStore> {
      const pool = new pg.Pool({ connectionString: schema.url, max: 6 });
      pool.on('error', () => {});
      pools.push(pool);
      const store = await PostgresDocumentStore.open({ ...options, pool });
      stores.push(store);
      return store;
    }

    async function emptied(): Promise<void> {
      const pool = new pg.Pool({ connectionString: schema.url, max: 1 });
      await pool.query('TRUNCATE document_versions, documents, document_state');
      await pool.end();
    }

    it('of 20 saves from two nodes racing from the same basedOn, exactly one is applied and 19 are conflicts', async () => {
      await emptied();
      const [a, b] = [await node(), await node()];
      await a.save({ id: DOC, text: 'base', author: ANA, reason: 'base' });
      const saves = Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a : b).save({ id: DOC, text: `edit ${i}`, author: ANA, reason: `edit ${i}`, basedOn: 1 }),
      );
      const results = await Promise.allSettled(saves);
      const applied = results.filter((r) => r.status === 'fulfilled');
      expect(applied).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect((r.reason as StoreError).code).toBe('conflict');
      const winner = (applied[0] as PromiseFulfilledResult<{ reason: string }>).value.reason;
      expect((await b.history(DOC)).map((v) => v.sequence)).toEqual([1, 2]);
      expect(await a.get(DOC)).toMatchObject({ sequence: 2, text: winner, reason: winner });
      // The conflicts used no sequence: the next save is 3.
      expect((await b.save({ id: DOC, text: 'next', author: ANA, reason: 'r' })).sequence).toBe(3);
    });

    it('loses no count when two nodes increment one state value at once (2 × 50)', async () => {
      await emptied();
      const [a, b] = [await node(), await node()];
      const increment = (store: PostgresDocumentStore) => store.updateState('counts/calls', (v) => ((v as number | undefined) ?? 0) + 1);
      const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => increment(i % 2 === 0 ? a : b)));
      expect(await a.readState('counts/calls')).toBe(100);
      // Each update saw a value no other saw: the answers are 1..100.
      expect([...answers].sort((x, y) => (x as number) - (y as number))).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    });

    it("tells B's onChange of A's write within a few seconds, moves B's change generation, and not A's own onChange", async () => {
      await emptied();
      const heardByA: string[][] = [];
      const heardByB: string[][] = [];
      const writes: unknown[] = [];
      const a = await node({ onChange: (ids) => heardByA.push(ids), onWrite: (w) => writes.push(w) });
      const b = await node({ onChange: (ids) => heardByB.push(ids) });
      const before = await b.changeGeneration();
      const started = Date.now();
      await a.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
      await waitFor('B hears the save', () => (heardByB.length > 0 ? true : undefined), 10_000);
      // About a second, with room for a loaded machine; a store that never hears still fails the wait above.
      expect(Date.now() - started).toBeLessThan(3_000);
      expect(heardByB).toEqual([[DOC]]);
      expect(await b.changeGeneration()).toBe(before + 1);
      expect((await b.get(DOC))?.text).toBe('one');
      // Activate, revert and state move the generation too; a state write is not a document change.
      await a.save({ id: DOC, text: 'two', author: ANA, reason: 'r' });
      await a.revert(DOC);
      await a.writeState('trials/x', { n: 1 });
      await a.updateState('trials/x', (v) => v);
      expect(await b.changeGeneration()).toBe(before + 5);
      await waitFor('B hears the revert', () => (heardByB.length >= 3 ? true : undefined), 10_000);
      await sleep(100);
      expect(heardByB).toEqual([[DOC], [DOC], [DOC]]);
      expect(heardByA).toEqual([]);
      expect(writes).toHaveLength(5);
      // A refused write moves nothing.
      await expect(a.save({ id: DOC, text: 'x', author: ANA, reason: 'r', basedOn: 2 })).rejects.toThrow(StoreError);
      expect(await b.changeGeneration()).toBe(before + 5);
    });

    it('is not heard by a store in another schema of the same database, whose own writes it does not hear', async () => {
      await emptied();
      const other = await freshSchema('pgstore_other');
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      try {
        await applyDocumentMigrations(client);
      } finally {
        await client.end();
      }
      const pool = new pg.Pool({ connectionString: other.url, max: 4 });
      pool.on('error', () => {});
      const heardHere: string[][] = [];
      const heardThere: string[][] = [];
      await node({ onChange: (ids) => heardHere.push(ids) });
      const there = await PostgresDocumentStore.open({ pool, onChange: (ids) => heardThere.push(ids) });
      try {
        const writer = await node();
        await writer.save({ id: DOC, text: 'here', author: ANA, reason: 'r' });
        await there.save({ id: 'policies/other.policy.json', text: 'there', author: ANA, reason: 'r' });
        await waitFor('the store in the same schema hears the save', () => (heardHere.length > 0 ? true : undefined), 10_000);
        await sleep(200);
        expect(heardHere).toEqual([[DOC]]);
        expect(heardThere).toEqual([]);
      } finally {
        await there.close();
        await pool.end();
        await other.drop();
      }
    });

    it('listens again when its LISTEN connection is cut, and tells onChange of every document', async () => {
      await emptied();
      const heard: string[][] = [];
      const a = await node();
      const b = await node({ onChange: (ids) => heard.push(ids) });
      await a.save({ id: 'b.json', text: 'b', author: ANA, reason: 'r' });
      await a.save({ id: 'a.json', text: 'a', author: ANA, reason: 'r' });
      await waitFor('both saves heard', () => (heard.length === 2 ? true : undefined), 10_000);
      const pid = b.listenerProcessId;
      expect(pid).toBeTypeOf('number');
      const admin = new pg.Client({ connectionString: schema.url });
      await admin.connect();
      try {
        expect((await admin.query('SELECT pg_terminate_backend($1) AS ok', [pid])).rows[0].ok).toBe(true);
      } finally {
        await admin.end();
      }
      await waitFor('every id after the reconnect', () => (heard.length === 3 ? true : undefined), 10_000);
      expect(heard[2]).toEqual(['a.json', 'b.json']);
      expect(b.listenerProcessId).not.toBe(pid);
      await a.save({ id: 'c.json', text: 'c', author: ANA, reason: 'r' });
      await waitFor('a save after the reconnect', () => (heard.length === 4 ? true : undefined), 10_000);
      expect(heard[3]).toEqual(['c.json']);
    });

    it('refuses an update as locked once waitMs has passed while another node holds the value, writing nothing', async () => {
      await emptied();
      const a = await node();
      await a.writeState('counts/held', 1);
      const holder = new pg.Client({ connectionString: schema.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query("SELECT value FROM document_state WHERE key = 'counts/held' FOR UPDATE");
        const started = Date.now();
        const err = await a.updateState('counts/held', (v) => (v as number) + 1, { waitMs: 150 }).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(StoreError);
        expect((err as StoreError).code).toBe('locked');
        expect(Date.now() - started).toBeLessThan(2000);
        // A document write waits for its row the same way (lockTimeoutMs).
        await a.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
        await holder.query('SELECT 1 FROM documents WHERE id = $1 FOR UPDATE', [DOC]);
        const short = await node({ lockTimeoutMs: 100 });
        expect(((await short.activate(DOC, 1).catch((e: unknown) => e)) as StoreError).code).toBe('locked');
        await holder.query('ROLLBACK');
        expect(await a.readState('counts/held')).toBe(1);
        expect(await a.updateState('counts/held', (v) => (v as number) + 1, { waitMs: 150 })).toBe(2);
      } finally {
        await holder.end();
      }
    });

    it('keeps texts byte for byte: unicode, CRLF, emoji, a NUL, and 4 MiB', async () => {
      await emptied();
      const [a, b] = [await node(), await node()];
      // Exactly 4 MiB of UTF-8: 838,860 five-byte pieces and four bytes more.
      const big = `${'x\u00e9\r\n'.repeat(838_860)}abcd`;
      const texts = ['d\u00e9j\u00e0 \u20ac \u{1f600}\u{1f469}\u200d\u{1f4bb}', 'one\r\ntwo\r\n', 'a\u0000b', '', '\ufeffbom', big];
      for (const [i, text] of texts.entries()) {
        const saved = await a.save({ id: `t/${i}.txt`, text, author: ANA, reason: 'r' });
        const read = await b.getVersion(`t/${i}.txt`, saved.sequence);
        expect(read?.text === text, `text ${i} reads back the same`).toBe(true);
        expect(read?.digest).toBe(digestOf(text));
        expect(read?.bytes).toBe(Buffer.byteLength(text, 'utf8'));
      }
      expect(Buffer.byteLength(big)).toBe(a.maxDocumentBytes);
      const tooBig = `${big}x`;
      expect(((await a.save({ id: 'big.txt', text: tooBig, author: ANA, reason: 'r' }).catch((e) => e)) as StoreError).code).toBe(
        'too_large',
      );
    });

    it('keeps one running version and fresh sequences while two nodes save, activate and revert at random', async () => {
      const [a, b] = [await node(), await node()];
      type Op = { node: number; op: 'save' | 'activate' | 'revert'; n: number };
      const op = fc.record({
        node: fc.nat(1),
        op: fc.constantFrom('save' as const, 'activate' as const, 'revert' as const),
        n: fc.integer({ min: 1, max: 6 }),
      });
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 2, maxLength: 16 }), async (ops: Op[]) => {
          await emptied();
          const run = (o: Op) => {
            const store = o.node === 0 ? a : b;
            if (o.op === 'save') return store.save({ id: DOC, text: `text ${o.n}`, author: ANA, reason: 'r', activate: o.n % 2 === 0 });
            if (o.op === 'activate') return store.activate(DOC, o.n);
            return store.revert(DOC);
          };
          const results = await Promise.allSettled(ops.map(run));
          for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(StoreError);
          const saved = results.filter((r, i) => r.status === 'fulfilled' && ops[i]?.op === 'save').length;
          const history = await a.history(DOC);
          expect(history.map((v) => v.sequence)).toEqual(Array.from({ length: saved }, (_, i) => i + 1));
          expect(history.filter((v) => v.running).length).toBeLessThanOrEqual(1);
          for (const v of history) expect((await b.getVersion(DOC, v.sequence))?.digest).toBe(v.digest);
          expect((await b.get(DOC))?.sequence).toBe(history.find((v) => v.running)?.sequence);
        }),
        { numRuns: 15 },
      );
    });

    it('opens its own pool from a connection string and ends it on close, leaving a given pool open', async () => {
      const own = await PostgresDocumentStore.open({ connectionString: schema.url });
      await own.save({ id: DOC, text: 'own', author: ANA, reason: 'r' });
      await own.close();
      await expect(own.list()).rejects.toThrow();
      const given = await node();
      await given.close();
      expect((await pools[pools.length - 1]?.query('SELECT 1 AS one'))?.rows[0].one).toBe(1);
      await expect(PostgresDocumentStore.open({})).rejects.toThrow('needs a pool or a connectionString');
    });

    it('refuses to open on a database without its tables, naming the migrations', async () => {
      const bare = await freshSchema('bare');
      try {
        await expect(PostgresDocumentStore.open({ connectionString: bare.url })).rejects.toThrow(/POSTGRES_DOCUMENT_MIGRATIONS first/);
      } finally {
        await bare.drop();
      }
    });

    it('applies the migrations once, however often and from however many clients at once', async () => {
      const other = await freshSchema('migrations');
      const clients = Array.from({ length: 3 }, () => new pg.Client({ connectionString: other.url }));
      try {
        for (const c of clients) await c.connect();
        const applied = await Promise.all(clients.map((c) => applyDocumentMigrations(c)));
        expect(applied.flat().sort()).toEqual(POSTGRES_DOCUMENT_MIGRATIONS.map((_, i) => i + 1));
        expect(await applyDocumentMigrations(clients[0] as pg.Client)).toEqual([]);
        const generation = await (clients[0] as pg.Client).query('SELECT count(*)::integer AS rows FROM document_changes');
        expect(generation.rows[0].rows).toBe(1);
      } finally {
        for (const c of clients) await c.end().catch(() => {});
        await other.drop();
      }
    });
  },
);
