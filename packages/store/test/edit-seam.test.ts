// The edit seam (docs/store.md, "The edit seam"): a
// scripted sequence on a folder store, then the seam's other promises: no validator means Refused, a
// writer of your own may decline, a wrapping writer cannot hide the impact, basedOn left out means
// the running version.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Diagnostic, readJsonText } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import {
  type DocumentValidator,
  type EditImpact,
  type EditOutcome,
  EditSeam,
  NO_IMPACT,
  type ProposedEdit,
  problem,
} from '../src/edits/edit-seam.ts';
import { type EditWriter, HoldModelEdits, saveEdit } from '../src/edits/writers.ts';
import { FolderDocumentStore } from '../src/folder-store.ts';
import { MemoryDocumentStore } from '../src/memory-store.ts';
import type { DocumentStore } from '../src/types.ts';
import { ANA, ASSISTANT, useTempDirs } from './helpers.ts';

const { tempDir, onCleanup } = useTempDirs();

const ID = 'intents/orders.priority.json';

const V1 = `{
  "name": "Orders.Priority",
  "owner": "order-desk",
  "rules": { "minimum": 1, "maximum": 5 }
}
`;
const V2 = `{
  "name": "Orders.Priority",
  "owner": "order-desk",
  "rules": { "minimum": 1, "maximum": 5 },
  "note": "A stopped production line is always 5."
}
`;
const DOES_NOT_LOAD = `{
  "name": "Orders.Priority",
  "owner": "order-desk",
  "rules": { "minimum": 1, "maximum": 5 ]
}
`;

/** A validator for JSON documents that counts the texts it reads, and flags a raised maximum or lowered minimum. */
class JsonValidator implements DocumentValidator {
  reads = 0;

  validate(id: string, text: string): Diagnostic[] {
    this.reads++;
    const read = readJsonText(text);
    // The seed prints each problem as `id:LINE: message`: the message here carries that line.
    const line = (d: Diagnostic): Diagnostic => ({ ...d, message: `${id}:${d.line ?? 1}: ${d.message}` });
    if (!read.ok) return [line(read.diagnostic)];
    return read.diagnostics.map(line);
  }

  impact(id: string, runningText: string | undefined, newText: string): EditImpact {
    const rules = (text: string | undefined) =>
      text === undefined ? {} : ((JSON.parse(text) as { rules?: Record<string, number> }).rules ?? {});
    const before = rules(runningText);
    const after = rules(newText);
    const subjects: string[] = [];
    if (before.maximum !== undefined && (after.maximum ?? Number.POSITIVE_INFINITY) > before.maximum)
      subjects.push(`${id} rules.maximum ${before.maximum} -> ${after.maximum ?? 'none'}`);
    if (before.minimum !== undefined && (after.minimum ?? Number.NEGATIVE_INFINITY) < before.minimum)
      subjects.push(`${id} rules.minimum ${before.minimum} -> ${after.minimum ?? 'none'}`);
    return { widensSecurity: subjects.length > 0, widenedSubjects: subjects };
  }
}

const kindOf = (id: string) => (id.endsWith('.json') ? 'json' : undefined);

function modelEdit(content: string, extra: Partial<ProposedEdit> = {}): ProposedEdit {
  return {
    kind: 'document',
    document: ID,
    content,
    author: ASSISTANT,
    reason: 'Treat a stopped production line as the most urgent.',
    ...extra,
  };
}

/** The seed prints each step; this is the same text from an outcome. */
function describeOutcome(outcome: EditOutcome): string[] {
  const head = outcome.version ? `${outcome.status}: version ${outcome.version.sequence}` : outcome.status;
  return [head, ...outcome.reasons.map((r) => `- ${r.message}`)];
}

describe('a scripted sequence of edits (docs/store.md, "The edit seam")', () => {
  it('applies, conflicts, refuses with a line, refuses unread, reverts, holds and activates', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'intents'));
    writeFileSync(join(root, ID), V1);
    const store = await FolderDocumentStore.open(root, { watch: false });
    onCleanup(() => store.close());
    const validator = new JsonValidator();
    const seam = new EditSeam({ store, kindOf, validators: { json: validator }, maxEditBytes: 16_384 });
    expect(seam.maxEditBytes).toBe(16_384);

    // A model's edit, with the default writer: Applied, version 2 is running.
    const applied = await seam.submit(modelEdit(V2));
    expect(applied.status).toBe('applied');
    expect(applied.version).toMatchObject({ sequence: 2, running: true, basedOn: 1, author: ASSISTANT });
    expect(applied.reasons.map((r) => r.message)).toEqual([]);
    expect(applied.impact).toEqual({ widensSecurity: false, widenedSubjects: [] });
    expect(await store.get(ID)).toMatchObject({ sequence: 2, text: V2 });
    expect(readFileSync(join(root, ID), 'utf8')).toBe(V2);

    // An edit based on version 1, written while version 2 began running: Conflict, nothing stored.
    const stale = await seam.submit(modelEdit(`${V2} `, { basedOn: 1 }));
    expect(describeOutcome(stale)).toEqual([
      'conflict',
      `- ${ID} changed since version 1: version 2 is running; read it, merge, and submit again`,
    ]);
    expect(stale.version).toBeUndefined();
    expect((await store.history(ID)).length).toBe(2);

    // An edit that does not load: Refused, with its line.
    const broken = await seam.submit(modelEdit(DOES_NOT_LOAD));
    expect(describeOutcome(broken)).toEqual(['refused', `- ${ID}:4: not JSON: comma or close brace expected at line 4, column 41`]);
    expect((await store.history(ID)).length).toBe(2);

    // An edit larger than MaxEditBytes, 16 KB here: Refused unread.
    const big = modelEdit(`{"pad": "${'x'.repeat(20_216 - 11)}"}`);
    expect(Buffer.byteLength(big.content)).toBe(20_216);
    const readsBefore = validator.reads;
    const oversized = await seam.submit(big);
    expect(describeOutcome(oversized)).toEqual([
      'refused',
      `- ${ID}: The edit's content is 20,216 bytes, more than the limit of 16,384 bytes, so it is refused unread.`,
    ]);
    expect(validator.reads).toBe(readsBefore);
    expect((await store.history(ID)).length).toBe(2);

    // The history, then a revert.
    const history = await store.history(ID);
    expect(
      history.map(
        (v) => `${v.sequence}: ${v.author.kind}${v.author.kind === 'model' ? ` ${v.author.label}` : ''}${v.running ? ' (running)' : ''}`,
      ),
    ).toEqual(['1: external', '2: model assistant (running)']);
    expect((await store.revert(ID)).sequence).toBe(1);
    expect(await store.get(ID)).toMatchObject({ sequence: 1, text: V1 });

    // The model's edit again, with HoldModelEdits: SavedNotRunning, version 3; version 1 keeps running.
    const holding = new EditSeam({
      store,
      kindOf,
      validators: { json: validator },
      maxEditBytes: 16_384,
      wrapWriter: (inner) => new HoldModelEdits(inner, store),
    });
    const held = await holding.submit(modelEdit(V2));
    expect(held.status).toBe('saved_not_running');
    expect(held.version).toMatchObject({ sequence: 3, running: false, basedOn: 1 });
    expect(held.reasons).toEqual([
      { code: 'HELD_FOR_REVIEW', severity: 'info', message: 'Held for review: version 3 is stored and the running version keeps running.' },
    ]);
    expect(await store.get(ID)).toMatchObject({ sequence: 1, text: V1 });
    expect(readFileSync(join(root, ID), 'utf8')).toBe(V1);

    // After a person activates it: version 3 runs.
    expect((await store.activate(ID, 3)).sequence).toBe(3);
    expect(await store.get(ID)).toMatchObject({ sequence: 3, text: V2 });
    expect(readFileSync(join(root, ID), 'utf8')).toBe(V2);
  });
});

describe('the edit seam', () => {
  async function seamOn(store: DocumentStore = new MemoryDocumentStore(), wrapWriter?: (inner: EditWriter) => EditWriter) {
    await store.save({ id: ID, text: V1, author: ANA, reason: 'first' });
    const validator = new JsonValidator();
    const seam = new EditSeam({ store, kindOf, validators: { json: validator }, ...(wrapWriter ? { wrapWriter } : {}) });
    return { store, seam, validator };
  }

  it('refuses an edit of a document no validator handles, storing nothing', async () => {
    const { store, seam } = await seamOn();
    const outcome = await seam.submit(modelEdit('# notes', { document: 'notes/readme.md' }));
    expect(outcome).toEqual({
      status: 'refused',
      reasons: [
        {
          code: 'DOCUMENT_KIND_UNKNOWN',
          severity: 'error',
          message: 'notes/readme.md: no validator handles this document, so the edit is refused',
        },
      ],
      impact: NO_IMPACT,
    });
    const noKind = new EditSeam({ store, kindOf: () => 'yaml', validators: {} });
    expect((await noKind.submit(modelEdit(V2))).status).toBe('refused');
    expect(await store.list()).toEqual([ID]);
    expect((await store.history(ID)).length).toBe(1);
  });

  it('refuses a bad id before any validator reads it', async () => {
    const { store, seam, validator } = await seamOn();
    const outcome = await seam.submit(modelEdit(V2, { document: '../escape.json' }));
    expect(outcome.status).toBe('refused');
    expect(outcome.reasons.map((r) => r.message)).toEqual(['"../escape.json": the id leaves the folder: ".." is not a path segment here']);
    expect(validator.reads).toBe(0);
    expect(await store.list()).toEqual([ID]);
  });

  it('gives Rejected when a writer of your own declines, and stores nothing', async () => {
    const declining: EditWriter = {
      async submit(edit, impact) {
        return {
          status: 'rejected',
          reasons: [problem('PERSON_REQUIRED', `${edit.document}: edits by ${edit.author.label} need a ticket`)],
          impact,
        };
      },
    };
    const { store, seam } = await seamOn(new MemoryDocumentStore(), () => declining);
    const outcome = await seam.submit(modelEdit(V2));
    expect(outcome.status).toBe('rejected');
    expect(outcome.reasons.map((r) => r.message)).toEqual([`${ID}: edits by assistant need a ticket`]);
    expect(outcome.version).toBeUndefined();
    expect((await store.history(ID)).length).toBe(1);
  });

  it('keeps the validator’s impact on the outcome whatever a wrapping writer returns', async () => {
    const hiding = (inner: EditWriter): EditWriter => ({
      async submit(edit, impact) {
        const outcome = await inner.submit(edit, impact);
        return { ...outcome, impact: NO_IMPACT };
      },
    });
    const { store, seam } = await seamOn(new MemoryDocumentStore(), hiding);
    const widened = V1.replace('"maximum": 5', '"maximum": 9');
    const outcome = await seam.submit(modelEdit(widened));
    expect(outcome.status).toBe('applied');
    expect(outcome.impact).toEqual({ widensSecurity: true, widenedSubjects: [`${ID} rules.maximum 5 -> 9`] });
    // A narrowing edit is not flagged.
    const narrowed = await seam.submit(modelEdit(V1.replace('"maximum": 5', '"maximum": 3')));
    expect(narrowed.impact).toEqual({ widensSecurity: false, widenedSubjects: [] });
    expect((await store.history(ID)).length).toBe(3);
  });

  it('takes basedOn left out as the running version, and a basedOn that matches it', async () => {
    const { store, seam } = await seamOn();
    await store.save({ id: ID, text: V2, author: ANA, reason: 'second' });
    const left = await seam.submit(modelEdit(V1));
    expect(left.status).toBe('applied');
    expect(left.version).toMatchObject({ sequence: 3, basedOn: 2 });
    const given = await seam.submit(modelEdit(V2, { basedOn: 3 }));
    expect(given.version).toMatchObject({ sequence: 4, basedOn: 3 });
    // A new document: basedOn null is the version running now (none).
    const fresh = await seam.submit(modelEdit(V1, { document: 'intents/new.json', basedOn: null }));
    expect(fresh.version).toMatchObject({ sequence: 1, basedOn: null });
    const staleNew = await seam.submit(modelEdit(V1, { document: 'intents/new.json', basedOn: null }));
    expect(staleNew.status).toBe('conflict');
  });

  it('holds only a model’s edits: a person’s edit goes to the inner writer and runs', async () => {
    const store = new MemoryDocumentStore();
    const { seam } = await seamOn(store, (inner) => new HoldModelEdits(inner, store));
    const person = await seam.submit(modelEdit(V2, { author: ANA }));
    expect(person.status).toBe('applied');
    const model = await seam.submit(modelEdit(V1));
    expect(model.status).toBe('saved_not_running');
    expect((await store.get(ID))?.sequence).toBe(2);
    // A held edit on a stale basedOn is a conflict too.
    expect((await seam.submit(modelEdit(V1, { basedOn: 1 }))).status).toBe('conflict');
  });

  it('assesses a conflicting edit against the version that runs now', async () => {
    const { store, seam } = await seamOn();
    // Meanwhile version 2 runs with a lower maximum; the stale edit raises it above what runs.
    await store.save({ id: ID, text: V1.replace('"maximum": 5', '"maximum": 3'), author: ANA, reason: 'narrower' });
    const stale = await seam.submit(modelEdit(V1.replace('"maximum": 5', '"maximum": 4'), { basedOn: 1 }));
    expect(stale.status).toBe('conflict');
    // Against version 1 it would narrow (5 -> 4); against the running version 2 it widens (3 -> 4).
    expect(stale.impact).toEqual({ widensSecurity: true, widenedSubjects: [`${ID} rules.maximum 3 -> 4`] });
    expect((await store.history(ID)).length).toBe(2);
  });

  it('never lets an edit through larger than the store holds', async () => {
    const store = new MemoryDocumentStore({ maxDocumentBytes: 1000 });
    const seam = new EditSeam({ store, kindOf, validators: { json: new JsonValidator() }, maxEditBytes: 10_000 });
    expect(seam.maxEditBytes).toBe(1000);
    const outcome = await seam.submit(modelEdit(`"${'x'.repeat(1000)}"`));
    expect(outcome.reasons.map((r) => r.message)).toEqual([
      `${ID}: The edit's content is 1,002 bytes, more than the limit of 1,000 bytes, so it is refused unread.`,
    ]);
  });

  it('maps a store refusal to Refused (a link out of the folder) and a store conflict to Conflict', async () => {
    const root = tempDir();
    const outside = tempDir();
    const store = await FolderDocumentStore.open(root, { watch: false });
    onCleanup(() => store.close());
    symlinkSync(outside, join(root, 'intents'), 'dir');
    const seam = new EditSeam({ store, kindOf, validators: { json: new JsonValidator() } });
    const outcome = await seam.submit(modelEdit(V1));
    expect(outcome.status).toBe('refused');
    expect(outcome.reasons.map((r) => r.message)).toEqual([`${ID} passes through intents, a link out of the folder`]);
    const memory = new MemoryDocumentStore();
    await memory.save({ id: ID, text: V1, author: ANA, reason: 'r' });
    const conflict = await saveEdit(memory, modelEdit(V2, { basedOn: 7 }), NO_IMPACT, true);
    expect(conflict.status).toBe('conflict');
    expect(conflict.reasons[0]).toMatchObject({ code: 'EDIT_CONFLICT', severity: 'error' });
    expect(conflict.reasons[0]?.message).toContain('changed since version 7');
  });
});
