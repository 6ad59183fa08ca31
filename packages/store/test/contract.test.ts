// The DocumentStore contract (docs/store.md, "The stores"): one suite, run against the memory store, the
// folder store on a real temp folder and the PostgreSQL store on a schema of its own, plus a differential
// property that the stores give the same history for the same random operations.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idProblem, MAX_ID_LENGTH } from '../src/document-id.ts';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { MemoryDocumentStore } from '../src/memory-store.ts';
import { type DocumentStore, type DocumentVersion, StoreError, type StoreWrite, type VersionsInUse } from '../src/types.ts';
import { ANA, ASSISTANT, DEV, sha256, useTempDirs } from './helpers.ts';
import { POSTGRES_UNREACHABLE } from './postgres-fixture.ts';
import { usePostgresStores } from './postgres-stores.ts';

interface FactoryOptions {
  maxDocumentBytes?: number;
  maxVersionsPerDocument?: number;
  now?: () => Date;
  onWrite?: (write: StoreWrite) => void;
  versionsInUse?: VersionsInUse;
}
type StoreFactory = (options?: FactoryOptions) => Promise<DocumentStore>;

const { tempDir, onCleanup } = useTempDirs();
const postgres = usePostgresStores('contract');

/** A clock that moves one second a call, so every version has its own known time. */
function steppingClock(start = Date.UTC(2030, 0, 1)): { now: () => Date; at: (i: number) => string } {
  let i = 0;
  return { now: () => new Date(start + 1000 * i++), at: (n) => new Date(start + 1000 * n).toISOString() };
}

async function refusal(promise: Promise<unknown>): Promise<StoreError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(StoreError);
    return err as StoreError;
  }
  throw new Error('expected the store to refuse');
}

function runningOf(history: DocumentVersion[]): number[] {
  return history.filter((v) => v.running).map((v) => v.sequence);
}

const DOC = 'policies/refunds.policy.json';

/** Every case idProblem names, with a fragment of the reason it gives. */
const INVALID_IDS: [string, string, string][] = [
  ['empty', '', 'non-empty path'],
  ['too long', 'a/'.repeat(256).concat('b'), `at most ${MAX_ID_LENGTH} characters`],
  ['a NUL byte', 'a\u0000b', 'NUL byte'],
  ['a newline', 'a\nb', 'control character'],
  ['DEL', 'a\u007fb', 'control character'],
  ['a leading slash', '/etc/passwd', 'absolute path'],
  ['a drive letter', 'C:x', 'absolute path'],
  ['a drive and backslash', 'C:\\x', 'absolute path'],
  ['<', 'a<b', 'Windows cannot hold'],
  ['>', 'a>b', 'Windows cannot hold'],
  [':', 'ab:c', 'Windows cannot hold'],
  ['"', 'a"b', 'Windows cannot hold'],
  ['|', 'a|b', 'Windows cannot hold'],
  ['?', 'a?b', 'Windows cannot hold'],
  ['*', 'a*b', 'Windows cannot hold'],
  ['a backslash', 'a\\b', 'Windows cannot hold'],
  ['a trailing slash', 'a/', 'empty path segment'],
  ['a doubled slash', 'a//b', 'empty path segment'],
  ['..', '../x', 'leaves the folder'],
  ['.. deeper', 'a/../../x', 'leaves the folder'],
  ['.', './x', 'leaves the folder'],
  ['a hidden file', '.env', 'starts with a dot'],
  ['the state folder', '.tollgate/x', 'starts with a dot'],
  ['CON', 'CON', 'device'],
  ['con.txt', 'con.txt', 'device'],
  ['LPT1', 'LPT1', 'device'],
  ['aux in a path', 'a/aux/b', 'device'],
  ['nul with two extensions', 'nul.tar.gz', 'device'],
  ['COM superscript one', 'COM\u00b9', 'device'],
  ['PRN', 'prn', 'device'],
  ['a trailing dot', 'x.', 'ends with a dot or space'],
  ['a trailing space', 'a /b', 'ends with a dot or space'],
];

const GOOD_IDS = [
  'a',
  DOC,
  'console.json',
  'con-tracts/com10.json',
  'a..b/c.d',
  'd\u00e9j\u00e0/\u20ac.txt',
  // Segments up to MAX_SEGMENT_BYTES (200: a temp file's prefix and suffix must still fit in 255).
  `${'a'.repeat(200)}/${'b'.repeat(200)}/${'c'.repeat(110)}`,
];

function runContract(name: string, factory: StoreFactory, skip?: string): void {
  describe.skipIf(skip !== undefined)(`DocumentStore contract: ${name}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    it('tells onWrite of each write it made, after it is made, and of no refused one', async () => {
      const writes: StoreWrite[] = [];
      const store = await factory({ onWrite: (w) => writes.push(w) });
      await store.save({ id: DOC, text: 'one\n', author: ANA, reason: 'first' });
      await store.save({ id: DOC, text: 'two\n', author: ANA, reason: 'second' });
      await store.activate(DOC, 1);
      await store.revert(DOC);
      await store.writeState('trial', { n: 1 });
      expect(writes).toEqual([
        { kind: 'document', id: DOC },
        { kind: 'document', id: DOC },
        { kind: 'document', id: DOC },
        { kind: 'document', id: DOC },
        { kind: 'state', key: 'trial' },
      ]);
      await expect(store.save({ id: DOC, text: 'three\n', author: ANA, reason: 'stale', basedOn: 1 })).rejects.toThrow();
      await expect(store.activate(DOC, 9)).rejects.toThrow();
      expect(writes).toHaveLength(5);
    });

    it('stores a version with its sequence, author, reason, basedOn, time, digest and bytes', async () => {
      const clock = steppingClock();
      const store = await factory({ now: clock.now });
      const text = '{"note": "d\u00e9j\u00e0 \u20ac \u{1f600}"}\n';
      const v1 = await store.save({ id: DOC, text, author: ANA, reason: 'first' });
      const expected: DocumentVersion = {
        id: DOC,
        sequence: 1,
        author: ANA,
        reason: 'first',
        basedOn: null,
        createdAt: clock.at(0),
        running: true,
        rejected: false,
        problems: [],
        digest: sha256(text),
        bytes: Buffer.byteLength(text, 'utf8'),
      };
      expect(v1).toEqual(expected);
      expect(v1.bytes).not.toBe(text.length);
      expect(await store.get(DOC)).toEqual({ ...expected, text });
      expect(await store.getVersion(DOC, 1)).toEqual({ ...expected, text });
      expect(await store.history(DOC)).toEqual([expected]);
    });

    it('keeps history oldest first, rejected versions included, with exactly one running', async () => {
      const clock = steppingClock();
      const store = await factory({ now: clock.now });
      await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r1' });
      const v2 = await store.save({ id: DOC, text: 'two', author: ASSISTANT, reason: 'r2' });
      const v3 = await store.save({ id: DOC, text: 'three', author: DEV, reason: 'r3', activate: false });
      const v4 = await store.save({
        id: DOC,
        text: 'four {',
        author: { kind: 'external', label: 'working copy' },
        reason: 'r4',
        rejected: ['x:1: bad'],
      });
      expect(v2).toMatchObject({ sequence: 2, basedOn: 1, running: true, createdAt: clock.at(1) });
      expect(v3).toMatchObject({ sequence: 3, basedOn: 2, running: false, rejected: false });
      expect(v4).toMatchObject({ sequence: 4, basedOn: 2, running: false, rejected: true, problems: ['x:1: bad'] });
      const history = await store.history(DOC);
      expect(history.map((v) => [v.sequence, v.author.kind, v.reason, v.rejected])).toEqual([
        [1, 'person', 'r1', false],
        [2, 'model', 'r2', false],
        [3, 'developer', 'r3', false],
        [4, 'external', 'r4', true],
      ]);
      expect(runningOf(history)).toEqual([2]);
      for (const [i, text] of ['one', 'two', 'three', 'four {'].entries()) {
        const version = await store.getVersion(DOC, i + 1);
        expect(version?.text).toBe(text);
        expect(version?.digest).toBe(sha256(text));
        expect(version?.running).toBe(i + 1 === 2);
      }
      expect((await store.get(DOC))?.text).toBe('two');
    });

    it('activates a stored version for the next call', async () => {
      const store = await factory();
      await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
      await store.save({ id: DOC, text: 'two', author: ANA, reason: 'r', activate: false });
      expect((await store.get(DOC))?.sequence).toBe(1);
      const activated = await store.activate(DOC, 2);
      expect(activated).toMatchObject({ sequence: 2, running: true });
      expect(await store.get(DOC)).toMatchObject({ sequence: 2, text: 'two', running: true });
      expect(runningOf(await store.history(DOC))).toEqual([2]);
      // Activating the running version again changes nothing.
      expect(await store.activate(DOC, 2)).toMatchObject({ sequence: 2, running: true });
      expect(runningOf(await store.history(DOC))).toEqual([2]);
    });

    it('reverts to the version that ran before: after activating 1, 3 and 2 a revert runs 3, then 1, then nothing', async () => {
      const store = await factory();
      await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
      await store.save({ id: DOC, text: 'two', author: ANA, reason: 'r', activate: false });
      await store.save({ id: DOC, text: 'three', author: ANA, reason: 'r', activate: false });
      await store.activate(DOC, 1);
      await store.activate(DOC, 3);
      await store.activate(DOC, 2);
      // revertTarget says beforehand what each revert runs.
      expect(await store.revertTarget(DOC)).toBe(3);
      expect(await store.revert(DOC)).toMatchObject({ sequence: 3, running: true });
      expect(await store.get(DOC)).toMatchObject({ sequence: 3, text: 'three' });
      expect(runningOf(await store.history(DOC))).toEqual([3]);
      expect(await store.revertTarget(DOC)).toBe(1);
      expect(await store.revert(DOC)).toMatchObject({ sequence: 1, running: true });
      expect(await store.revertTarget(DOC)).toBeUndefined();
      expect(await store.revertTarget('never/stored.json')).toBeUndefined();
      expect(await store.get(DOC)).toMatchObject({ sequence: 1, text: 'one' });
      const none = await refusal(store.revert(DOC));
      expect(none.code).toBe('nothing_to_revert');
      expect(none.message).toContain(DOC);
      expect((await store.get(DOC))?.sequence).toBe(1);
      expect((await store.history(DOC)).map((v) => v.sequence)).toEqual([1, 2, 3]);
    });

    it('never activates a rejected version, and a revert skips past one', async () => {
      const store = await factory();
      await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
      await store.save({ id: DOC, text: 'bad', author: ANA, reason: 'r', rejected: ['policy:1: not JSON'] });
      const err = await refusal(store.activate(DOC, 2));
      expect(err.code).toBe('rejected_version');
      expect(err.message).toBe(`${DOC} version 2 did not load, so it can never run`);
      expect((await store.get(DOC))?.sequence).toBe(1);
      expect(runningOf(await store.history(DOC))).toEqual([1]);
      // A rejected save asked to activate still does not run.
      const v3 = await store.save({ id: DOC, text: 'bad again', author: ANA, reason: 'r', rejected: ['x'], activate: true });
      expect(v3.running).toBe(false);
      expect((await store.get(DOC))?.sequence).toBe(1);
    });

    it('refuses activate and revert of what does not exist', async () => {
      const store = await factory();
      expect((await refusal(store.activate(DOC, 1))).code).toBe('not_found');
      expect((await refusal(store.revert(DOC))).code).toBe('not_found');
      await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
      const err = await refusal(store.activate(DOC, 9));
      expect(err.code).toBe('not_found');
      expect(err.message).toBe(`${DOC} has no version 9`);
      expect(await store.get('other.json')).toBeUndefined();
      expect(await store.getVersion(DOC, 9)).toBeUndefined();
      expect(await store.getVersion('other.json', 1)).toBeUndefined();
      expect(await store.history('other.json')).toEqual([]);
    });

    it('refuses a save on a stale basedOn as a conflict, storing nothing and using no sequence', async () => {
      const store = await factory();
      await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
      await store.save({ id: DOC, text: 'two', author: ANA, reason: 'r', basedOn: 1 });
      const before = await store.history(DOC);
      const err = await refusal(store.save({ id: DOC, text: 'stale', author: ASSISTANT, reason: 'r', basedOn: 1 }));
      expect(err.code).toBe('conflict');
      expect(err.message).toBe(`${DOC} changed since version 1: version 2 is running now; read it, merge, and submit again`);
      expect(await store.history(DOC)).toEqual(before);
      expect((await store.get(DOC))?.text).toBe('two');
      expect((await store.save({ id: DOC, text: 'three', author: ANA, reason: 'r', basedOn: 2 })).sequence).toBe(3);
    });

    it('takes basedOn null for a new document and refuses it once the document exists', async () => {
      const store = await factory();
      const v1 = await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r', basedOn: null });
      expect(v1).toMatchObject({ sequence: 1, basedOn: null, running: true });
      const err = await refusal(store.save({ id: DOC, text: 'again', author: ANA, reason: 'r', basedOn: null }));
      expect(err.code).toBe('conflict');
      expect(err.message).toContain('changed since version none');
      expect((await store.history(DOC)).length).toBe(1);
      // A basedOn on a document that has none yet is a conflict too.
      const other = await refusal(store.save({ id: 'new.json', text: 'x', author: ANA, reason: 'r', basedOn: 4 }));
      expect(other.code).toBe('conflict');
      expect(await store.list()).toEqual([DOC]);
    });

    it('refuses a text over maxDocumentBytes, counting UTF-8 bytes, and stores nothing', async () => {
      const store = await factory({ maxDocumentBytes: 1000 });
      expect(store.maxDocumentBytes).toBe(1000);
      expect((await store.save({ id: DOC, text: 'x'.repeat(1000), author: ANA, reason: 'r' })).bytes).toBe(1000);
      const err = await refusal(store.save({ id: DOC, text: 'x'.repeat(1001), author: ANA, reason: 'r' }));
      expect(err.code).toBe('too_large');
      expect(err.message).toBe(`${DOC} is 1001 bytes, more than the limit of 1000 bytes`);
      const euros = '\u20ac'.repeat(334);
      expect(euros.length).toBeLessThan(1000);
      const multi = await refusal(store.save({ id: 'euros.txt', text: euros, author: ANA, reason: 'r' }));
      expect(multi.code).toBe('too_large');
      expect(multi.message).toContain('1002 bytes');
      expect((await store.history(DOC)).length).toBe(1);
      expect(await store.list()).toEqual([DOC]);
      expect((await factory()).maxDocumentBytes).toBe(4 * 1024 * 1024);
    });

    it.each(INVALID_IDS)('refuses an id with %s as invalid_id and stores nothing', async (_what, id, fragment) => {
      const store = await factory();
      const problem = idProblem(id);
      expect(problem).toContain(fragment);
      const err = await refusal(store.save({ id, text: 'x', author: ANA, reason: 'r' }));
      expect(err.code).toBe('invalid_id');
      expect(err.message).toBe(`${JSON.stringify(id)}: ${problem}`);
      expect(await store.list()).toEqual([]);
      expect(await store.get(id)).toBeUndefined();
      expect(await store.history(id)).toEqual([]);
      await expect(store.activate(id, 1)).rejects.toBeInstanceOf(StoreError);
      await expect(store.revert(id)).rejects.toBeInstanceOf(StoreError);
    });

    it('takes good ids, up to the length limit', async () => {
      const store = await factory();
      expect(GOOD_IDS.at(-1)?.length).toBe(MAX_ID_LENGTH);
      for (const id of GOOD_IDS) {
        expect(idProblem(id)).toBeUndefined();
        await store.save({ id, text: `text of ${id}`, author: ANA, reason: 'r' });
        expect((await store.get(id))?.text).toBe(`text of ${id}`);
      }
      expect(await store.list()).toEqual([...GOOD_IDS].sort());
    });

    it('refuses an id with a path segment no file system holds (300 characters) and stores nothing', async () => {
      // document-id.ts: "a memory store never accepts what a folder store could not hold".
      const store = await factory();
      const id = `docs/${'a'.repeat(300)}.json`;
      const error = await store.save({ id, text: 'x', author: ANA, reason: 'r' }).then(
        () => undefined,
        (err: unknown) => err,
      );
      // Nothing stored first, so a failure shows a version left behind by a save that threw.
      expect({ history: await store.history(id), list: await store.list() }).toEqual({ history: [], list: [] });
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).code).toBe('invalid_id');
    });

    it('prunes the oldest versions that do not run past maxVersionsPerDocument, never reusing a sequence', async () => {
      const store = await factory({ maxVersionsPerDocument: 3 });
      await store.save({ id: DOC, text: 'v1', author: ANA, reason: 'r' });
      for (let i = 2; i <= 6; i++) await store.save({ id: DOC, text: `v${i}`, author: ANA, reason: 'r', activate: false });
      let history = await store.history(DOC);
      expect(history.map((v) => v.sequence)).toEqual([1, 5, 6]);
      expect(runningOf(history)).toEqual([1]);
      expect(await store.getVersion(DOC, 2)).toBeUndefined();
      expect((await store.getVersion(DOC, 5))?.text).toBe('v5');
      expect(await store.get(DOC)).toMatchObject({ sequence: 1, text: 'v1' });
      // A rejected version counts, and the next sequence is never one given before.
      expect((await store.save({ id: DOC, text: 'bad', author: ANA, reason: 'r', rejected: ['no'] })).sequence).toBe(7);
      expect((await store.history(DOC)).map((v) => v.sequence)).toEqual([1, 6, 7]);
      const v8 = await store.save({ id: DOC, text: 'v8', author: ANA, reason: 'r' });
      expect(v8.sequence).toBe(8);
      history = await store.history(DOC);
      // Version 1 ran before 8: it is the revert target, so it is kept and 6 goes (docs/store.md, "Retention").
      expect(history.map((v) => v.sequence)).toEqual([1, 7, 8]);
      expect(runningOf(history)).toEqual([8]);
      expect((await store.revert(DOC)).sequence).toBe(1);
      expect((await refusal(store.activate(DOC, 6))).code).toBe('not_found');
    });

    it('never prunes a version in use (versionsInUse) or the revert target, keeping more than the limit when it must', async () => {
      const store = await factory({ maxVersionsPerDocument: 3, versionsInUse: (id) => (id === DOC ? [2] : []) });
      await store.save({ id: DOC, text: 'v1', author: ANA, reason: 'r' });
      for (let i = 2; i <= 6; i++) await store.save({ id: DOC, text: `v${i}`, author: ANA, reason: 'r', activate: false });
      expect((await store.history(DOC)).map((v) => v.sequence)).toEqual([1, 2, 6]);
      await store.activate(DOC, 6);
      await store.save({ id: DOC, text: 'v7', author: ANA, reason: 'r' });
      // 7 runs, 6 is its revert target and 2 is in use, so 1 goes although it is the oldest.
      expect((await store.history(DOC)).map((v) => v.sequence)).toEqual([2, 6, 7]);
      expect((await store.getVersion(DOC, 2))?.text).toBe('v2');
    });

    it('updates a state value in one step: twenty updates at once count twenty', async () => {
      const store = await factory();
      await Promise.all(
        Array.from({ length: 20 }, () => store.updateState('counts/n', (value) => ((value as number | undefined) ?? 0) + 1)),
      );
      expect(await store.readState('counts/n')).toBe(20);
    });

    it('reads and writes state', async () => {
      const store = await factory();
      expect(await store.readState('trials/policies/a.json')).toBeUndefined();
      const value = { calls: 3, differing: ['c1', 'c2'], nested: { ok: true, at: null } };
      await store.writeState('trials/policies/a.json', value);
      value.calls = 99;
      expect(await store.readState('trials/policies/a.json')).toEqual({
        calls: 3,
        differing: ['c1', 'c2'],
        nested: { ok: true, at: null },
      });
      await store.writeState('trials/policies/a.json', [1, 'two']);
      expect(await store.readState('trials/policies/a.json')).toEqual([1, 'two']);
      await store.writeState('other', 'text');
      expect(await store.readState('other')).toBe('text');
      expect(await store.readState('trials/policies/a.json')).toEqual([1, 'two']);
      // State is not a document.
      expect(await store.list()).toEqual([]);
    });

    it('lists every document with a version, sorted', async () => {
      const store = await factory();
      expect(await store.list()).toEqual([]);
      for (const id of ['b.json', 'a/c.json', 'a.json', 'a/b/d.yaml']) await store.save({ id, text: id, author: ANA, reason: 'r' });
      await store.save({ id: 'z.json', text: 'held', author: ANA, reason: 'r', activate: false });
      await expect(store.save({ id: '../x', text: 'x', author: ANA, reason: 'r' })).rejects.toThrow(StoreError);
      expect(await store.list()).toEqual(['a.json', 'a/b/d.yaml', 'a/c.json', 'b.json', 'z.json']);
      // A document with only a held version has no running one.
      expect(await store.get('z.json')).toBeUndefined();
      expect((await store.getVersion('z.json', 1))?.text).toBe('held');
    });

    it('hands out copies: changing a returned version changes nothing stored', async () => {
      const store = await factory();
      const saved = await store.save({ id: DOC, text: 'one', author: ANA, reason: 'kept' });
      saved.reason = 'changed';
      saved.author.label = 'mallory';
      const history = await store.history(DOC);
      (history[0] as DocumentVersion).running = false;
      (history[0] as DocumentVersion).digest = 'x';
      expect(await store.history(DOC)).toMatchObject([{ reason: 'kept', author: ANA, running: true, digest: sha256('one') }]);
    });
  });
}

runContract('MemoryDocumentStore', async (options = {}) => new MemoryDocumentStore(options));

runContract('FolderDocumentStore', async (options = {}) => {
  const store = await FolderDocumentStore.open(tempDir(), { ...options, watch: false });
  onCleanup(() => store.close());
  return store;
});

runContract('PostgresDocumentStore', (options = {}) => postgres.open(options), POSTGRES_UNREACHABLE);

describe('the stores agree', () => {
  type Op =
    | { op: 'save'; doc: number; text: string; activate: boolean; rejected: boolean; basedOn: number | null | undefined }
    | { op: 'activate'; doc: number; sequence: number }
    | { op: 'revert'; doc: number };
  const docs = ['a.json', 'b/c.json'];
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      op: fc.constant('save' as const),
      doc: fc.nat(1),
      text: fc.string({ maxLength: 20, unit: 'grapheme' }),
      activate: fc.boolean(),
      rejected: fc.boolean(),
      basedOn: fc.option(fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }), { nil: undefined }),
    }),
    fc.record({ op: fc.constant('activate' as const), doc: fc.nat(1), sequence: fc.integer({ min: 1, max: 8 }) }),
    fc.record({ op: fc.constant('revert' as const), doc: fc.nat(1) }),
  );

  async function apply(store: DocumentStore, o: Op): Promise<string> {
    const id = docs[o.doc] as string;
    try {
      if (o.op === 'save') {
        const save = { id, text: o.text, author: ANA, reason: 'r', activate: o.activate, ...(o.rejected ? { rejected: ['no'] } : {}) };
        return JSON.stringify(await store.save(o.basedOn === undefined ? save : { ...save, basedOn: o.basedOn }));
      }
      if (o.op === 'activate') return JSON.stringify(await store.activate(id, o.sequence));
      return JSON.stringify(await store.revert(id));
    } catch (err) {
      if (err instanceof StoreError) return `${err.code}: ${err.message}`;
      throw err;
    }
  }

  /** Runs the same operations on the memory store and on `other`, and compares every answer, history and text. */
  async function agree(open: (options: FactoryOptions) => Promise<DocumentStore>, numRuns: number): Promise<void> {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const at = Date.UTC(2030, 0, 1);
        const memory = new MemoryDocumentStore({ maxVersionsPerDocument: 4, now: () => new Date(at) });
        const other = await open({ maxVersionsPerDocument: 4, now: () => new Date(at) });
        try {
          for (const o of ops) expect(await apply(other, o)).toBe(await apply(memory, o));
          for (const id of docs) {
            const history = await memory.history(id);
            expect(await other.history(id)).toEqual(history);
            expect(runningOf(history).length).toBeLessThanOrEqual(1);
            for (const v of history) expect(await other.getVersion(id, v.sequence)).toEqual(await memory.getVersion(id, v.sequence));
            expect(await other.get(id)).toEqual(await memory.get(id));
            expect(await other.revertTarget(id)).toEqual(await memory.revertTarget(id));
          }
          expect(await other.list()).toEqual(await memory.list());
        } finally {
          await other.close();
        }
      }),
      { numRuns },
    );
  }

  it('gives the same outcomes, histories and texts for the same operations (memory vs folder)', async () => {
    await agree((options) => FolderDocumentStore.open(tempDir(), { ...options, watch: false }), 40);
  });

  it.skipIf(POSTGRES_UNREACHABLE !== undefined)(
    `gives the same outcomes, histories and texts for the same operations (memory vs PostgreSQL)${POSTGRES_UNREACHABLE ? ` (skipped: ${POSTGRES_UNREACHABLE})` : ''}`,
    async () => {
      await agree((options) => postgres.open(options), 40);
    },
  );
});
