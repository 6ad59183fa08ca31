// The edit seam with the engine's own validators and impact analysers, on a real folder store.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentKindOf } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { EditSeam, engineValidators, FolderDocumentStore, HoldModelEdits, loadProblems } from '../src/index.ts';
import { ASSISTANT, DEV, useTempDirs } from './helpers.ts';

const REFUNDS = readFileSync(new URL('../../../examples/refunds.policy.json', import.meta.url), 'utf8');
const POLICY = 'policies/refunds.policy.json';
const DANA = DEV;
const MODEL = ASSISTANT;
const { tempDir, onCleanup } = useTempDirs();

async function openWithPolicy() {
  const dir = tempDir();
  const store = await FolderDocumentStore.open(dir, { watch: false, validate: loadProblems });
  onCleanup(() => store.close());
  await store.save({ id: POLICY, text: REFUNDS, author: DANA, reason: 'the seed example' });
  return { dir, store };
}

describe('the edit seam with the engine validators', () => {
  it('applies a widening edit and names what it widens', async () => {
    const { store } = await openWithPolicy();
    const seam = new EditSeam({ store, kindOf: documentKindOf, validators: engineValidators() });
    const outcome = await seam.submit({
      kind: 'document',
      document: POLICY,
      // The demo's v2: refunds up to 250 USD run without approval (docs/review.md).
      content: REFUNDS.replace('"gt": "100"', '"gt": "250"').replace('"lte": "100"', '"lte": "250"'),
      author: MODEL,
      reason: 'auto-approve a little more',
    });
    expect(outcome.status).toBe('applied');
    const widened = 'refund.issue, amount in (100, 250] USD: require approval -> allow (widens)';
    expect(outcome.impact).toEqual({ widensSecurity: true, widenedSubjects: [widened], changes: [widened] });
    expect((await store.get(POLICY))?.sequence).toBe(2);
  });

  it('does not flag a narrowing edit', async () => {
    const { store } = await openWithPolicy();
    const seam = new EditSeam({ store, kindOf: documentKindOf, validators: engineValidators() });
    const outcome = await seam.submit({
      kind: 'document',
      document: POLICY,
      content: REFUNDS.replace('"lte": "100"', '"lte": "50"'),
      author: DANA,
      reason: 'tighter',
    });
    expect(outcome).toMatchObject({ status: 'applied', impact: { widensSecurity: false, widenedSubjects: [] } });
  });

  it('refuses a policy that does not validate, with its code and path, and stores nothing', async () => {
    const { store } = await openWithPolicy();
    const seam = new EditSeam({ store, kindOf: documentKindOf, validators: engineValidators() });
    const outcome = await seam.submit({
      kind: 'document',
      document: POLICY,
      content: REFUNDS.replace('"default": "deny"', '"default": "allow"'),
      author: DANA,
      reason: 'oops',
    });
    expect(outcome.status).toBe('refused');
    expect(outcome.reasons.some((r) => r.code === 'PERMISSIVE_DEFAULT')).toBe(true);
    expect(await store.history(POLICY)).toHaveLength(1);
  });

  it('refuses a sheet outside the subset with its line, and a document of no known kind', async () => {
    const { store } = await openWithPolicy();
    const seam = new EditSeam({ store, kindOf: documentKindOf, validators: engineValidators() });
    const sheet = await seam.submit({
      kind: 'document',
      document: 'sheets/shop.rules.yaml',
      content: 'rules:\n  - action: a\n    frob: 1\n',
      author: DANA,
      reason: 'r',
    });
    expect(sheet.status).toBe('refused');
    expect(sheet.reasons[0]).toMatchObject({ code: 'rule_sheet_unsupported', line: 3 });
    const notes = await seam.submit({ kind: 'document', document: 'notes.txt', content: 'hi', author: DANA, reason: 'r' });
    expect(notes).toMatchObject({
      status: 'refused',
      reasons: [{ code: 'DOCUMENT_KIND_UNKNOWN', message: 'notes.txt: no validator handles this document, so the edit is refused' }],
    });
  });

  it('holds a model edit with HoldModelEdits and still reports its impact', async () => {
    const { store } = await openWithPolicy();
    const seam = new EditSeam({
      store,
      kindOf: documentKindOf,
      validators: engineValidators(),
      wrapWriter: (inner) => new HoldModelEdits(inner, store),
    });
    const outcome = await seam.submit({
      kind: 'document',
      document: POLICY,
      // Refunds over 1000 up to 5000 USD held for approval instead of refused.
      content: REFUNDS.replace('"gt": "1000"', '"gt": "5000"').replace('"lte": "1000"', '"lte": "5000"'),
      author: MODEL,
      reason: 'r',
    });
    expect(outcome.status).toBe('saved_not_running');
    expect(outcome.impact.widenedSubjects).toEqual(['refund.issue, amount in (1000, 5000] USD: deny -> require approval (widens)']);
    expect((await store.get(POLICY))?.sequence).toBe(1);
  });

  it('keeps a hand-edited policy that does not load as a rejected version, the one before running', async () => {
    const { dir, store } = await openWithPolicy();
    writeFileSync(join(dir, POLICY), REFUNDS.replace('"effect": "deny"', '"effect": "maybe"'));
    expect(await store.rescan()).toEqual([POLICY]);
    const history = await store.history(POLICY);
    expect(history.map((v) => [v.sequence, v.author.kind, v.running, v.rejected])).toEqual([
      [1, 'developer', true, false],
      [2, 'external', false, true],
    ]);
    expect(history[1]?.problems.some((p) => p.includes('INVALID_VALUE'))).toBe(true);
  });
});
