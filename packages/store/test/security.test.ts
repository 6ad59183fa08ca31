// Security (docs/store.md, "Invariants"): every id that would leave the folder, name a Windows device, reach
// the state folder or pass through a link out of the folder is refused with a clear reason, and
// nothing is written: the folder, .tollgate and the folder beside it list the same before and after.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { idProblem } from '../src/document-id.ts';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { StoreError } from '../src/types.ts';
import { ANA, listTree, useTempDirs } from './helpers.ts';

const { tempDir, onCleanup } = useTempDirs();

let parent: string;
let root: string;
let outside: string;
let store: FolderDocumentStore;

beforeEach(async () => {
  parent = tempDir();
  root = join(parent, 'docs');
  outside = join(parent, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.json'), '{"key": "sk-outside-the-folder"}');
  store = await FolderDocumentStore.open(root, { watch: false });
  onCleanup(() => store.close());
  await store.save({ id: 'a.json', text: '{"a":1}', author: ANA, reason: 'first' });
});

async function refusedWithNothingWritten(attempt: () => Promise<unknown>): Promise<StoreError> {
  const before = listTree(parent);
  let error: unknown;
  try {
    await attempt();
  } catch (err) {
    error = err;
  }
  expect(listTree(parent)).toEqual(before);
  expect(error).toBeInstanceOf(StoreError);
  return error as StoreError;
}

describe('ids that are refused', () => {
  it.each([
    ['../x', 'the id leaves the folder: ".." is not a path segment here'],
    ['a/../../x', 'the id leaves the folder: ".." is not a path segment here'],
    ['/etc/passwd', 'the id is an absolute path; ids are relative to the folder'],
    ['C:\\x', 'the id is an absolute path; ids are relative to the folder'],
    ['c:/x', 'the id is an absolute path; ids are relative to the folder'],
    ['CON', '"CON" is a name Windows reads as a device (CON, PRN, AUX, NUL, COM1-9, LPT1-9)'],
    ['con.txt', '"con.txt" is a name Windows reads as a device (CON, PRN, AUX, NUL, COM1-9, LPT1-9)'],
    ['LPT1', '"LPT1" is a name Windows reads as a device (CON, PRN, AUX, NUL, COM1-9, LPT1-9)'],
    ['a/aux/b', '"aux" is a name Windows reads as a device (CON, PRN, AUX, NUL, COM1-9, LPT1-9)'],
    ['a\u0000b', 'the id has a NUL byte'],
    ['a.json\u0000.txt', 'the id has a NUL byte'],
    ['x.', '"x." ends with a dot or space, which Windows drops'],
    ['.tollgate/x', '".tollgate" starts with a dot: hidden files and the .tollgate state folder are not documents'],
    [
      '.tollgate/documents/a.json/index.json',
      '".tollgate" starts with a dot: hidden files and the .tollgate state folder are not documents',
    ],
  ])('refuses %j with invalid_id and writes nothing', async (id, reason) => {
    expect(idProblem(id)).toBe(reason);
    const err = await refusedWithNothingWritten(() => store.save({ id, text: '{"pwned":true}', author: ANA, reason: 'r' }));
    expect(err.code).toBe('invalid_id');
    expect(err.message).toBe(`${JSON.stringify(id)}: ${reason}`);
    expect((await refusedWithNothingWritten(() => store.activate(id, 1))).code).toBe('invalid_id');
    expect((await refusedWithNothingWritten(() => store.revert(id))).code).toBe('invalid_id');
    expect(await store.list()).toEqual(['a.json']);
  });

  it('refuses an absolute path into another folder', async () => {
    const id = join(outside, 'x.json');
    const err = await refusedWithNothingWritten(() => store.save({ id, text: '{}', author: ANA, reason: 'r' }));
    expect(err.code).toBe('invalid_id');
    expect(err.message).toBe(`${JSON.stringify(id)}: the id is an absolute path; ids are relative to the folder`);
  });

  it('refuses a state key that leaves the state folder', async () => {
    const err = await refusedWithNothingWritten(() => store.writeState('../../outside/x', { a: 1 }));
    expect(err.code).toBe('invalid_id');
    expect(err.message).toContain('the id leaves the folder');
  });
});

describe('links out of the folder', () => {
  it('refuses a save through a folder link pointing outside, and writes nothing on either side', async () => {
    symlinkSync(outside, join(root, 'out'), 'dir');
    const err = await refusedWithNothingWritten(() => store.save({ id: 'out/x.json', text: '{}', author: ANA, reason: 'r' }));
    expect(err.code).toBe('invalid_id');
    expect(err.message).toBe('out/x.json passes through out, a link out of the folder');
  });

  it('refuses a save through a link deeper in the tree', async () => {
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    symlinkSync(outside, join(root, 'a', 'b', 'c'), 'dir');
    const err = await refusedWithNothingWritten(() => store.save({ id: 'a/b/c/d/x.json', text: '{}', author: ANA, reason: 'r' }));
    expect(err.code).toBe('invalid_id');
    expect(err.message).toBe('a/b/c/d/x.json passes through a/b/c, a link out of the folder');
  });

  it('refuses a save onto a file link pointing outside, and onto a dangling one', async () => {
    symlinkSync(join(outside, 'secret.json'), join(root, 'secret.json'), 'file');
    symlinkSync(join(outside, 'not-there.json'), join(root, 'dangling.json'), 'file');
    const err = await refusedWithNothingWritten(() => store.save({ id: 'secret.json', text: '{}', author: ANA, reason: 'r' }));
    expect(err.message).toBe('secret.json passes through secret.json, a link out of the folder');
    const dangling = await refusedWithNothingWritten(() => store.save({ id: 'dangling.json', text: '{}', author: ANA, reason: 'r' }));
    expect(dangling.code).toBe('invalid_id');
    expect(readFileSync(join(outside, 'secret.json'), 'utf8')).toBe('{"key": "sk-outside-the-folder"}');
  });

  it('does not follow links out of the folder when it reads the folder, and reports them', async () => {
    symlinkSync(outside, join(root, 'out'), 'dir');
    symlinkSync(join(outside, 'secret.json'), join(root, 'secret.json'), 'file');
    const documents = join(root, '.tollgate', 'documents');
    const before = listTree(documents);
    expect(await store.rescan()).toEqual([]);
    expect(listTree(documents)).toEqual(before);
    expect(store.problems()).toEqual([
      { id: 'out', code: 'LINK_OUTSIDE', message: 'out is a link out of the folder; it is not followed' },
      { id: 'secret.json', code: 'LINK_OUTSIDE', message: 'secret.json is a link out of the folder; it is not followed' },
    ]);
    expect(await store.list()).toEqual(['a.json']);
    expect(listTree(join(root, '.tollgate')).join('\n')).not.toContain(
      listTree(outside)
        .find((l) => l.includes('secret.json'))
        ?.split(' ')[3] ?? 'never',
    );
    // Opening the folder again does not follow them either.
    const again = await FolderDocumentStore.open(root, { watch: false });
    onCleanup(() => again.close());
    expect(await again.list()).toEqual(['a.json']);
    expect(again.problems().map((p) => p.code)).toEqual(['LINK_OUTSIDE', 'LINK_OUTSIDE']);
  });
});

describe('sizes', () => {
  const fiveMiB = 5 * 1024 * 1024;

  it('refuses a 5 MiB save as too_large and writes nothing', async () => {
    const err = await refusedWithNothingWritten(() => store.save({ id: 'big.json', text: 'x'.repeat(fiveMiB), author: ANA, reason: 'r' }));
    expect(err.code).toBe('too_large');
    expect(err.message).toBe(`big.json is ${fiveMiB} bytes, more than the limit of ${4 * 1024 * 1024} bytes`);
    const existing = await refusedWithNothingWritten(() =>
      store.save({ id: 'a.json', text: 'x'.repeat(fiveMiB), author: ANA, reason: 'r' }),
    );
    expect(existing.code).toBe('too_large');
    expect(await store.get('a.json')).toMatchObject({ sequence: 1, text: '{"a":1}' });
  });

  it('reports a 5 MiB working copy, stores nothing of it, and keeps the version before running', async () => {
    writeFileSync(join(root, 'a.json'), 'x'.repeat(fiveMiB));
    const documents = join(root, '.tollgate', 'documents');
    const before = listTree(documents);
    expect(await store.rescan()).toEqual([]);
    expect(listTree(documents)).toEqual(before);
    expect(store.problems()).toEqual([
      {
        id: 'a.json',
        code: 'too_large',
        message: `a.json is ${fiveMiB} bytes, over the limit of ${4 * 1024 * 1024}; it was not read and the version before keeps running`,
      },
    ]);
    expect(await store.get('a.json')).toMatchObject({ sequence: 1, text: '{"a":1}' });
  });
});

describe('a state root inside the folder', () => {
  it('refuses ids that reach the state root when it has no leading dot', async () => {
    const folder = join(parent, 'with-state');
    const state = join(folder, 'state');
    const inner = await FolderDocumentStore.open(folder, { stateRoot: state, watch: false });
    onCleanup(() => inner.close());
    await inner.save({ id: 'a.json', text: '{"a":1}', author: ANA, reason: 'r' });
    const index = 'state/documents/a.json/index.json';
    const err = await refusedWithNothingWritten(() => inner.save({ id: index, text: '{"forged":true}', author: ANA, reason: 'r' }));
    expect(err.code).toBe('invalid_id');
    expect(await inner.get('a.json')).toMatchObject({ sequence: 1, text: '{"a":1}' });
  });
});
