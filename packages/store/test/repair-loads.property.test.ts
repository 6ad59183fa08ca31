// A working copy that does not load is kept as a rejected version and never runs, on every path that takes one
// in (docs/store.md, "Faults and what to do"): `repairStore`, the folder store's open and rescan with the
// engine's validators. Generated texts of every document kind that the kind's validator refuses; `checkStore`
// says what is in the folder: the rejected hand edit, and a running version that does not load.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadProblems } from '../src/edits/engine-validators.ts';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { checkStore, repairStore } from '../src/store-check.ts';
import { ANA, REPO_ROOT, useTempDirs } from './helpers.ts';

const { tempDir } = useTempDirs();
const example = (path: string) => readFileSync(join(REPO_ROOT, 'examples', path), 'utf8');

/** A text that loads, for one id of every kind. */
const SEEDS: Record<string, string> = {
  'catalogue.yaml': example('shop.catalogue.yaml'),
  'sheets/shop.rules.yaml': example('shop.rules.yaml'),
  'colang/shop.co': example('shop.co'),
  'policies/refunds.policy.json': example('refunds.policy.json'),
  'policies/refunds.examples.json': example('documents/policies/refunds.examples.json'),
  'rulesets/support.ruleset.json': example('documents/rulesets/support.ruleset.json'),
  'agents/support-bot.agent.yaml': example('documents/agents/support-bot.agent.yaml'),
  'settings.yaml': example('documents/settings.yaml'),
  'mcp/servers.yaml': 'servers:\n  - name: files\n    stdio:\n      command: node\n      args: [files.js]\n',
};

const KEY = fc.stringMatching(/^[a-z][a-z_]{0,11}$/);

/** Texts of `id`'s kind that do not load: the seed with a member no kind knows, or any text at all. */
function notLoading(id: string): fc.Arbitrary<string> {
  const seed = SEEDS[id] as string;
  const json = id.endsWith('.json');
  const unknownMember = fc.tuple(KEY, fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.boolean())).map(([key, value]) => {
    if (!json) return `${seed.endsWith('\n') ? seed : `${seed}\n`}zz_${key}: ${JSON.stringify(value)}\n`;
    const object = JSON.parse(seed) as Record<string, unknown>;
    return JSON.stringify({ ...object, [`zz_${key}`]: value }, null, 2);
  });
  const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.json({ maxDepth: 2 }), fc.constant('define flow\n  ((('));
  return fc.oneof(unknownMember, anyText).filter((text) => loadProblems(id, text).length > 0 && text !== seed);
}

/** A closed folder store whose `id` ran versions 1, 2 and 3 of loading texts, 3 running. */
async function seeded(id: string): Promise<string> {
  const root = tempDir();
  const store = await FolderDocumentStore.open(root, { watch: false, validate: loadProblems });
  const seed = SEEDS[id] as string;
  for (const tail of ['\n', '\n\n', '\n\n\n']) await store.save({ id, text: seed.trimEnd() + tail, author: ANA, reason: 'r' });
  await store.close();
  return root;
}

function handEdit(root: string, id: string, text: string): void {
  mkdirSync(dirname(join(root, id)), { recursive: true });
  writeFileSync(join(root, id), text);
}

describe('a working copy that does not load never runs', () => {
  it('every seed loads', () => {
    for (const [id, text] of Object.entries(SEEDS)) expect(loadProblems(id, text), id).toEqual([]);
  });

  for (const id of Object.keys(SEEDS)) {
    it(`repair keeps it as a rejected version and check says so: ${id}`, async () => {
      await fc.assert(
        fc.asyncProperty(notLoading(id), async (text) => {
          const root = await seeded(id);
          handEdit(root, id, text);
          const before = checkStore(root);
          expect(before.map((f) => f.code)).toEqual(['WORKING_COPY_DIFFERS']);
          expect(before[0]?.message).toContain('does not load');
          const { actions, remaining } = await repairStore(root);
          expect(actions).toEqual([`kept ${id} as a rejected version: it does not load`]);
          expect(remaining.map((f) => [f.code, f.id])).toEqual([['WORKING_COPY_REJECTED', id]]);
          expect(remaining[0]?.message).toContain('version 3 keeps running');
          const store = await FolderDocumentStore.open(root, { watch: false, validate: loadProblems });
          try {
            expect((await store.get(id))?.sequence).toBe(3);
            const history = await store.history(id);
            expect(history.map((v) => [v.sequence, v.running, v.rejected])).toEqual([
              [1, false, false],
              [2, false, false],
              [3, true, false],
              [4, false, true],
            ]);
            // A second repair changes nothing and promotes nothing.
            expect((await repairStore(root)).remaining.map((f) => f.code)).toEqual(['WORKING_COPY_REJECTED']);
            expect((await store.history(id)).length).toBe(4);
          } finally {
            await store.close();
          }
        }),
        { numRuns: 8 },
      );
    });
  }

  it('the store takes it in as rejected at open and on a rescan too', async () => {
    const ids = Object.keys(SEEDS);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ids).chain((id) => fc.tuple(fc.constant(id), notLoading(id), notLoading(id))),
        async ([id, atOpen, atRescan]) => {
          const root = await seeded(id);
          handEdit(root, id, atOpen);
          const store = await FolderDocumentStore.open(root, { watch: false, validate: loadProblems });
          try {
            expect((await store.get(id))?.sequence).toBe(3);
            handEdit(root, id, atRescan);
            await store.rescan();
            expect((await store.get(id))?.sequence).toBe(3);
            expect((await store.history(id)).filter((v) => v.rejected).length).toBe(atRescan === atOpen ? 1 : 2);
          } finally {
            await store.close();
          }
          expect(checkStore(root).map((f) => f.code)).toEqual(['WORKING_COPY_REJECTED']);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('check reports a running version that does not load (as an older repair left it); repair does not hide it', async () => {
    const id = 'agents/support-bot.agent.yaml';
    const root = await seeded(id);
    handEdit(root, id, `${SEEDS[id]}colour: blue\n`);
    // A store without a validator takes every text in as running: the fault this check is for.
    const lax = await FolderDocumentStore.open(root, { watch: false });
    expect((await lax.get(id))?.sequence).toBe(4);
    await lax.close();
    const found = checkStore(root);
    expect(found.map((f) => [f.code, f.id])).toEqual([['RUNNING_NOT_LOADABLE', id]]);
    expect(found[0]?.message).toContain('version 4, running');
    expect((await repairStore(root)).remaining.map((f) => f.code)).toEqual(['RUNNING_NOT_LOADABLE']);
  });
});
