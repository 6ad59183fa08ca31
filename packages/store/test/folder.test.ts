// What only the folder store does (docs/store.md, "The folder store"): working copies beside .tollgate/, hand edits
// taken in as external or rejected versions (by rescan and by the watcher), oversized working copies reported and not
// read, a state root elsewhere, reopening, and temp files left by a crash cleaned at open.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FolderDocumentStore, type FolderStoreOptions } from '../src/folder-store.ts';
import { ANA, ASSISTANT, sha256, useTempDirs, waitFor } from './helpers.ts';

const { tempDir, onCleanup } = useTempDirs();
const DOC = 'policies/refunds.policy.json';
const EXTERNAL = { kind: 'external', label: 'working copy' };

async function open(root: string, options: FolderStoreOptions = {}): Promise<FolderDocumentStore> {
  const store = await FolderDocumentStore.open(root, { watch: false, ...options });
  onCleanup(() => store.close());
  return store;
}

function working(root: string, id: string): string {
  return readFileSync(join(root, ...id.split('/')), 'utf8');
}

function writeWorking(root: string, id: string, text: string | Buffer): void {
  const path = join(root, ...id.split('/'));
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/** A validator for the folder: JSON must parse. */
function jsonLoads(id: string, text: string): string[] {
  try {
    JSON.parse(text);
    return [];
  } catch (err) {
    return [`${id}:1: ${(err as Error).message}`];
  }
}

describe('FolderDocumentStore working copies', () => {
  it('writes the running version to the working copy after save, activate and revert', async () => {
    const root = tempDir();
    const store = await open(root);
    await store.save({ id: DOC, text: '{"v":1}', author: ANA, reason: 'r' });
    expect(working(root, DOC)).toBe('{"v":1}');
    await store.save({ id: DOC, text: '{"v":2}', author: ANA, reason: 'r' });
    expect(working(root, DOC)).toBe('{"v":2}');
    await store.save({ id: DOC, text: '{"v":3}', author: ASSISTANT, reason: 'held', activate: false });
    expect(working(root, DOC)).toBe('{"v":2}');
    await store.save({ id: DOC, text: '{', author: ANA, reason: 'bad', rejected: ['no'] });
    expect(working(root, DOC)).toBe('{"v":2}');
    await store.activate(DOC, 3);
    expect(working(root, DOC)).toBe('{"v":3}');
    await store.revert(DOC);
    expect(working(root, DOC)).toBe('{"v":2}');
    await store.activate(DOC, 1);
    expect(working(root, DOC)).toBe('{"v":1}');
    expect(existsSync(join(root, '.tollgate', 'documents'))).toBe(true);
  });

  it('takes in the files of a folder it opens as version 1, authored external', async () => {
    const root = tempDir();
    writeWorking(root, 'a.json', '{"a":1}');
    writeWorking(root, 'sub/b.yaml', 'b: 2\n');
    writeWorking(root, '.env', 'SECRET=1');
    const changes: string[][] = [];
    const store = await open(root, { onChange: (ids) => changes.push(ids) });
    expect(await store.list()).toEqual(['a.json', 'sub/b.yaml']);
    // onChange runs once open has returned the store, never inside open (docs/store.md, "Startup").
    expect(changes).toEqual([]);
    await waitFor('the open to report its changes', () => (changes.length > 0 ? true : undefined));
    expect(changes).toEqual([['a.json', 'sub/b.yaml']]);
    for (const [id, text] of [
      ['a.json', '{"a":1}'],
      ['sub/b.yaml', 'b: 2\n'],
    ] as const) {
      expect(await store.history(id)).toEqual([
        expect.objectContaining({ sequence: 1, author: EXTERNAL, basedOn: null, running: true, rejected: false, digest: sha256(text) }),
      ]);
      expect((await store.get(id))?.text).toBe(text);
    }
    expect(store.problems()).toEqual([]);
    // Opening again takes in nothing new.
    await store.close();
    const again = await open(root);
    expect((await again.history('a.json')).length).toBe(1);
  });

  it('takes in a working copy edited by hand as an external version on rescan', async () => {
    const root = tempDir();
    const changes: string[][] = [];
    const store = await open(root, { onChange: (ids) => changes.push(ids) });
    await store.save({ id: DOC, text: '{"v":1}', author: ANA, reason: 'r' });
    writeWorking(root, DOC, '{"v":"by hand"}');
    expect(await store.rescan()).toEqual([DOC]);
    expect(changes).toEqual([[DOC]]);
    const history = await store.history(DOC);
    expect(history.map((v) => [v.sequence, v.author, v.running, v.basedOn])).toEqual([
      [1, ANA, false, null],
      [2, EXTERNAL, true, 1],
    ]);
    expect(history[1]?.reason).toBe('the working copy was edited');
    expect((await store.get(DOC))?.text).toBe('{"v":"by hand"}');
    expect(await store.rescan()).toEqual([]);
    expect((await store.history(DOC)).length).toBe(2);
  });

  it('takes in a hand edit back to the text of the version before as a new external version', async () => {
    // A person restores the old text (an editor's undo, `git checkout`): that is an edit too.
    const root = tempDir();
    const store = await open(root);
    await store.save({ id: DOC, text: '{"v":1}', author: ANA, reason: 'r' });
    await store.save({ id: DOC, text: '{"v":2}', author: ASSISTANT, reason: 'r' });
    writeWorking(root, DOC, '{"v":1}');
    await store.rescan();
    expect(await store.get(DOC)).toMatchObject({ sequence: 3, author: EXTERNAL, text: '{"v":1}' });
    expect(working(root, DOC)).toBe('{"v":1}');
  });

  it('takes in hand edits through the watcher, new folders included', async () => {
    const root = tempDir();
    const changes: string[][] = [];
    const store = await open(root, { watch: true, debounceMs: 50, onChange: (ids) => changes.push(ids) });
    await store.save({ id: DOC, text: '{"v":1}', author: ANA, reason: 'r' });
    writeWorking(root, DOC, '{"v":"watched"}');
    const v2 = await waitFor('the hand edit to become version 2', async () => {
      const running = await store.get(DOC);
      return running?.sequence === 2 ? running : undefined;
    });
    expect(v2).toMatchObject({ author: EXTERNAL, text: '{"v":"watched"}', basedOn: 1 });
    writeWorking(root, 'fresh/new.json', '{"n":1}');
    await waitFor('a file in a new folder to be taken in', async () =>
      (await store.get('fresh/new.json'))?.text === '{"n":1}' ? true : undefined,
    );
    // The new folder is watched too.
    writeWorking(root, 'fresh/new.json', '{"n":2}');
    await waitFor('an edit in the new folder', async () => ((await store.get('fresh/new.json'))?.sequence === 2 ? true : undefined));
    expect(changes.flat()).toEqual(expect.arrayContaining([DOC, 'fresh/new.json']));
    // The store's own writes of working copies make no versions.
    await store.save({ id: DOC, text: '{"v":3}', author: ANA, reason: 'r' });
    await new Promise((r) => setTimeout(r, 200));
    expect((await store.history(DOC)).map((v) => v.sequence)).toEqual([1, 2, 3]);
  });

  it('keeps a hand edit that does not load as a rejected version; the version before keeps running', async () => {
    const root = tempDir();
    const store = await open(root, { validate: jsonLoads });
    await store.save({ id: DOC, text: '{"v":1}', author: ANA, reason: 'r' });
    writeWorking(root, DOC, '{"v": [1, 2}');
    expect(await store.rescan()).toEqual([DOC]);
    const history = await store.history(DOC);
    expect(history.map((v) => [v.sequence, v.author.kind, v.running, v.rejected])).toEqual([
      [1, 'person', true, false],
      [2, 'external', false, true],
    ]);
    expect(history[1]?.problems).toHaveLength(1);
    expect(history[1]?.problems[0]).toMatch(/^policies\/refunds\.policy\.json:1: /);
    expect((await store.getVersion(DOC, 2))?.text).toBe('{"v": [1, 2}');
    expect(await store.get(DOC)).toMatchObject({ sequence: 1, text: '{"v":1}' });
    await expect(store.activate(DOC, 2)).rejects.toMatchObject({ code: 'rejected_version' });
    // Reading the folder again does not store the same rejected text twice.
    expect(await store.rescan()).toEqual([]);
    expect((await store.history(DOC)).length).toBe(2);
    // Mended, it runs.
    writeWorking(root, DOC, '{"v": [1, 2]}');
    await store.rescan();
    expect(await store.get(DOC)).toMatchObject({ sequence: 3, text: '{"v": [1, 2]}', basedOn: 1 });
  });

  it('reports a 5 MiB working copy as too_large, does not read it, and keeps the version before running', async () => {
    const root = tempDir();
    const validated: string[] = [];
    const store = await open(root, {
      validate: (id, text) => {
        validated.push(id);
        return jsonLoads(id, text);
      },
    });
    await store.save({ id: DOC, text: '{"v":1}', author: ANA, reason: 'r' });
    const big = 5 * 1024 * 1024;
    writeWorking(root, DOC, `{"v":"${'x'.repeat(big - 8)}"}`);
    writeWorking(root, 'big-new.json', Buffer.alloc(big, 0x20));
    expect(await store.rescan()).toEqual([]);
    expect(validated).toEqual([]);
    expect(store.problems()).toEqual([
      {
        id: 'big-new.json',
        code: 'too_large',
        message: `big-new.json is ${big} bytes, over the limit of ${4 * 1024 * 1024}; it was not read and the version before keeps running`,
      },
      {
        id: DOC,
        code: 'too_large',
        message: `${DOC} is ${big} bytes, over the limit of ${4 * 1024 * 1024}; it was not read and the version before keeps running`,
      },
    ]);
    expect((await store.history(DOC)).length).toBe(1);
    expect(await store.get(DOC)).toMatchObject({ sequence: 1, text: '{"v":1}' });
    expect(await store.list()).toEqual([DOC]);
    // Once it is back under the limit it is read, and the problem goes.
    writeWorking(root, DOC, '{"v":2}');
    await store.rescan();
    expect(await store.get(DOC)).toMatchObject({ sequence: 2, author: EXTERNAL });
    expect(store.problems().map((p) => p.id)).toEqual(['big-new.json']);
  });

  it('keeps versions under a state root elsewhere, with no .tollgate in the folder', async () => {
    const root = tempDir();
    const stateRoot = join(tempDir(), 'state');
    writeWorking(root, 'a.json', '{"a":1}');
    const store = await open(root, { stateRoot });
    expect(store.stateRoot).toBe(stateRoot);
    await store.save({ id: 'a.json', text: '{"a":2}', author: ANA, reason: 'r' });
    expect(readdirSync(root)).toEqual(['a.json']);
    expect(readdirSync(join(stateRoot, 'documents'))).toEqual(['a.json']);
    await store.close();
    const again = await open(root, { stateRoot });
    expect((await again.history('a.json')).map((v) => [v.sequence, v.author.kind])).toEqual([
      [1, 'external'],
      [2, 'person'],
    ]);
    expect(readdirSync(root)).toEqual(['a.json']);
  });

  it('keeps every version, the running one and the activation order across reopening', async () => {
    const root = tempDir();
    const first = await open(root);
    await first.save({ id: DOC, text: 'one', author: ANA, reason: 'r1' });
    await first.save({ id: DOC, text: 'two', author: ASSISTANT, reason: 'r2', activate: false });
    await first.save({ id: DOC, text: 'three', author: ANA, reason: 'r3', activate: false });
    await first.save({ id: 'other.json', text: '{}', author: ANA, reason: 'r' });
    await first.activate(DOC, 3);
    await first.activate(DOC, 2);
    await first.writeState('trials/x', { calls: 4 });
    const history = await first.history(DOC);
    await first.close();
    const second = await open(root);
    expect(await second.history(DOC)).toEqual(history);
    expect(await second.list()).toEqual(['other.json', DOC]);
    expect(await second.get(DOC)).toMatchObject({ sequence: 2, text: 'two' });
    for (const v of history) expect((await second.getVersion(DOC, v.sequence))?.digest).toBe(v.digest);
    expect(await second.readState('trials/x')).toEqual({ calls: 4 });
    expect((await second.revert(DOC)).sequence).toBe(3);
    expect((await second.save({ id: DOC, text: 'four', author: ANA, reason: 'r4' })).sequence).toBe(4);
  });

  it('cleans temp files left in the state folder at open', async () => {
    const root = tempDir();
    const store = await open(root);
    await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
    await store.close();
    const docDir = join(root, '.tollgate', 'documents', encodeURIComponent(DOC));
    const temps = [
      join(docDir, '.index.json.4242.0.tmp'),
      join(docDir, 'versions', '.2.json.4242.1.tmp'),
      join(root, '.tollgate', '.lock.1.2.tmp'),
    ];
    for (const t of temps) writeFileSync(t, '{"half": ');
    writeFileSync(join(docDir, 'notes.txt'), 'kept');
    const again = await open(root);
    for (const t of temps) expect(existsSync(t)).toBe(false);
    expect(existsSync(join(docDir, 'notes.txt'))).toBe(true);
    expect((await again.history(DOC)).map((v) => v.sequence)).toEqual([1]);
  });

  it('cleans a temp file of a working copy left in the folder at open', async () => {
    // A crash between writing a working copy's temp file and renaming it leaves it beside the document.
    const root = tempDir();
    const store = await open(root);
    await store.save({ id: DOC, text: 'one', author: ANA, reason: 'r' });
    await store.close();
    const temp = join(root, 'policies', '.refunds.policy.json.4242.0.tmp');
    writeFileSync(temp, 'half of a working cop');
    writeFileSync(join(root, '.env'), 'kept');
    await open(root);
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(join(root, '.env'))).toBe(true);
  });
});
