// The record's chain (server/record/chain.ts, docs/audit.md) over generated histories: one to three writers, each
// with up to thirty entries of random kinds and small JSON bodies, interleaved in a random order, and checkpoints
// signed at random places with the other writers' heads as seen then. An untouched record verifies, in any
// interleaving across writers; each single edit is caught at the first place docs/audit.md says it breaks, named
// exactly (reason, writer, seq, index, and for a checkpoint's break its place among the checkpoints); and the
// documented limit holds as stated: an edit or a removal of a writer's last entry that no checkpoint names, itself
// or among the heads it saw of the other writers, verifies. Entries of a writer with no public key are refused. The
// expectations are worked out per edit from where it was made: which places of the record it changed or removed,
// and the first checkpoint, in the order given, naming one of them (its own position, then the heads it saw).
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ChainEntry,
  type ChainHead,
  type Checkpoint,
  canonicalForm,
  GENESIS,
  hashOf,
  headAfter,
  type JsonValue,
  nextEntry,
  type RecordBreak,
  signCheckpoint,
  verifyRecord,
} from '../src/server/record/chain.ts';

// One key pair per writer for the module, and one no writer holds: generating them per sample would be most of the
// run's time.
const WRITERS = ['node-a', 'node-b', 'embedded'] as const;
const PAIRS = WRITERS.map((w) => [w, generateKeyPairSync('ed25519')] as const);
const KEYS = new Map<string, KeyObject>(PAIRS.map(([w, k]) => [w, k.privateKey]));
const PUBLIC = new Map<string, KeyObject>(PAIRS.map(([w, k]) => [w, k.publicKey]));
const OUTSIDER = generateKeyPairSync('ed25519').privateKey;

const RUNS = { numRuns: 120 };

type Body = ChainEntry['body'];

/** Small JSON values as a body holds them: strings, whole numbers, booleans, null, small arrays and objects. */
const { value } = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.string({ maxLength: 8, unit: 'grapheme' }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 5 }), tie('value'), { maxKeys: 3, noNullPrototype: true }),
  ),
}));
const body: fc.Arbitrary<Body> = fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 4, noNullPrototype: true });
const kind = fc.oneof(
  fc.constantFrom('decision', 'approval.decided', 'member.removed', 'key.revoked'),
  fc.string({ minLength: 1, maxLength: 12 }),
);

interface History {
  /** The writers of this record (one to three of WRITERS). */
  writers: string[];
  /** Per writer, what its entries are, in its own order. */
  chains: { kind: string; body: Body }[][];
  /** The order across writers: the writer (its index in `writers`) of each entry of the record in turn. */
  order: number[];
  /** After each entry of the record: a writer (index, modulo the writers) that signs where it stands, or none. */
  marks: (number | null)[];
  /** Per writer, whether it signs its last head at the end. */
  closing: boolean[];
}

/** Writer `w`'s place in the record: each writer's index repeated once per entry of its chain, shuffled. */
function orders(chains: readonly unknown[][]): fc.Arbitrary<number[]> {
  const slots = chains.flatMap((c, w) => c.map(() => w));
  return fc.shuffledSubarray(slots, { minLength: slots.length, maxLength: slots.length });
}

const history: fc.Arbitrary<History> = fc
  .integer({ min: 1, max: 3 })
  .chain((n) =>
    fc.record({
      writers: fc.shuffledSubarray([...WRITERS], { minLength: n, maxLength: n }),
      chains: fc.array(fc.array(fc.record({ kind, body }), { maxLength: 30 }), { minLength: n, maxLength: n }),
      closing: fc.array(fc.boolean(), { minLength: n, maxLength: n }),
    }),
  )
  .chain((h) => {
    const total = h.chains.reduce((sum, c) => sum + c.length, 0);
    return fc.record({
      writers: fc.constant(h.writers),
      chains: fc.constant(h.chains),
      closing: fc.constant(h.closing),
      order: orders(h.chains),
      marks: fc.array(fc.option(fc.nat({ max: 2 }), { nil: null, freq: 4 }), { minLength: total, maxLength: total }),
    });
  });

interface Record {
  entries: ChainEntry[];
  checkpoints: Checkpoint[];
}

const time = (step: number) => new Date(Date.UTC(2026, 0, 1) + step * 1000).toISOString();

/** The other writers' heads, as `writer` has seen them. */
function seenBy(writer: string, heads: ReadonlyMap<string, ChainHead>): Checkpoint['seen'] {
  return Object.fromEntries([...heads].filter(([w]) => w !== writer).map(([w, h]) => [w, { seq: h.seq, head: h.hash }]));
}

/** The record the writers of `h` make, each appending with nextEntry and signing with its own key. */
function build(h: History, order: readonly number[] = h.order): Record {
  const heads = new Map<string, ChainHead>(h.writers.map((w) => [w, { writer: w, seq: 0, hash: GENESIS }]));
  const next = h.writers.map(() => 0);
  const entries: ChainEntry[] = [];
  const checkpoints: Checkpoint[] = [];
  const sign = (writer: string, step: number) => {
    const head = heads.get(writer) as ChainHead;
    // A writer signs only once it has an entry: a checkpoint of an empty chain names entry 0, which no record has.
    if (head.seq > 0) checkpoints.push(signCheckpoint(head, time(step), seenBy(writer, heads), KEYS.get(writer) as KeyObject));
  };
  for (const [step, w] of order.entries()) {
    const writer = h.writers[w] as string;
    const spec = h.chains[w]?.[next[w] as number] as { kind: string; body: Body };
    next[w] = (next[w] as number) + 1;
    const entry = nextEntry(heads.get(writer) as ChainHead, spec.kind, time(step), spec.body);
    entries.push(entry);
    heads.set(writer, headAfter(entry));
    const mark = h.marks[step];
    if (mark !== null && mark !== undefined) sign(h.writers[mark % h.writers.length] as string, step);
  }
  for (const [w, writer] of h.writers.entries()) if (h.closing[w]) sign(writer, order.length);
  return { entries, checkpoints };
}

/** What an edit left of an entry's place: the entry as signed, another in its stead, or nothing. */
type Place = 'kept' | 'changed' | 'gone';

/** Where the checkpoints first fail over an edit, and whether the checkpoint named the place itself or saw it. */
interface CheckpointBreak {
  first: Omit<RecordBreak, 'message'>;
  via: 'own' | 'seen';
}

/**
 * The first checkpoint break over a record whose entries verify and whose checkpoints are all signed by their
 * writers' keys, after an edit that left each place as `place` says: the checkpoints in the order given, each its own
 * position, then the other writers' heads it saw (in their order; a head of 0 names no entry). Undefined if none fails.
 */
function checkpointBreak(checkpoints: readonly Checkpoint[], place: (writer: string, seq: number) => Place): CheckpointBreak | undefined {
  for (const [k, c] of checkpoints.entries()) {
    const named: [string, number, CheckpointBreak['via']][] = [
      [c.writer, c.seq, 'own'],
      ...Object.entries(c.seen)
        .filter(([, s]) => s.seq > 0)
        .map(([w, s]) => [w, s.seq, 'seen'] as [string, number, CheckpointBreak['via']]),
    ];
    for (const [writer, seq, via] of named) {
      const there = place(writer, seq);
      if (there === 'kept') continue;
      return { first: { reason: there === 'gone' ? 'truncated' : 'checkpoint', writer, seq, index: null, checkpoint: k }, via };
    }
  }
  return undefined;
}

/** The index of the entry after `index` in the same writer's chain, or -1 when it is the writer's last. */
function nextOfWriter(entries: readonly ChainEntry[], index: number): number {
  const writer = entries[index]?.writer;
  return entries.findIndex((e, k) => k > index && e.writer === writer);
}

/** A body that differs from `b` in one field (or has one where it had none). */
function changed(b: Body, pick: number): Body {
  const keys = Object.keys(b);
  if (keys.length === 0) return { tampered: true };
  const key = keys[pick % keys.length] as string;
  // `[v]` is never `v`, whatever `v` is, so the canonical form always changes.
  return { ...b, [key]: [b[key] as JsonValue] };
}

/** The record fails first exactly at `first`: an entry's break has no `checkpoint`, a checkpoint's has its place. */
function broken(record: Record, first: Omit<RecordBreak, 'message'>, keys: ReadonlyMap<string, KeyObject> = PUBLIC) {
  expect(first.index === null).toBe(first.checkpoint !== undefined);
  const verdict = verifyRecord(record.entries, record.checkpoints, keys);
  expect(verdict).toEqual({ ok: false, first: { ...first, message: expect.any(String) } });
  if (!verdict.ok) expect(verdict.first.message).not.toBe('');
}

function verifies(record: Record) {
  expect(verifyRecord(record.entries, record.checkpoints, PUBLIC)).toEqual({
    ok: true,
    entries: record.entries.length,
    checkpoints: record.checkpoints.length,
  });
}

/** Records with at least one entry, and a number to pick a place in them with. */
const withEntries = fc.tuple(history, fc.nat()).filter(([h]) => h.order.length > 0);

describe("the record's chain over generated histories", () => {
  it('verifies an untouched record, counting its entries and checkpoints', () => {
    fc.assert(
      fc.property(history, (h) => {
        const record = build(h);
        expect(record.entries).toHaveLength(h.order.length);
        verifies(record);
      }),
      RUNS,
    );
  });

  it('verifies the same entries interleaved across writers another way (order across writers is free)', () => {
    const other = history.chain((h) => fc.tuple(fc.constant(h), orders(h.chains)));
    fc.assert(
      fc.property(other, ([h, order]) => {
        const record = build(h);
        const byWriter = (es: ChainEntry[], w: string) => es.filter((e) => e.writer === w);
        // The same entries, each writer's in its own order, and the checkpoints as they were signed.
        const queues = new Map(h.writers.map((w) => [w, byWriter(record.entries, w)]));
        const entries = order.map((w) => queues.get(h.writers[w] as string)?.shift() as ChainEntry);
        for (const w of h.writers) expect(byWriter(entries, w)).toEqual(byWriter(record.entries, w));
        verifies({ entries, checkpoints: record.checkpoints });
      }),
      RUNS,
    );
  });

  it('names an entry whose body was changed without its hash: hash, at that entry', () => {
    fc.assert(
      fc.property(withEntries, fc.nat(), ([h, pick], field) => {
        const { entries, checkpoints } = build(h);
        const i = pick % entries.length;
        const target = entries[i] as ChainEntry;
        const tampered = [...entries];
        tampered[i] = { ...target, body: changed(target.body, field) };
        broken({ entries: tampered, checkpoints }, { reason: 'hash', writer: target.writer, seq: target.seq, index: i });
      }),
      RUNS,
    );
  });

  it('names the next entry after one changed and re-hashed (link), or the first checkpoint over a last one; else it verifies', () => {
    const seen = { link: 0, own: 0, seen: 0, verifies: 0 };
    fc.assert(
      fc.property(withEntries, fc.nat(), fc.boolean(), ([h, pick], field, last) => {
        const { entries, checkpoints } = build(h);
        // Half the time a writer's last entry, where only a checkpoint can tell.
        const lasts = entries.flatMap((_, k) => (nextOfWriter(entries, k) < 0 ? [k] : []));
        const i = last ? (lasts[pick % lasts.length] as number) : pick % entries.length;
        const target = entries[i] as ChainEntry;
        const rewritten = { ...target, body: changed(target.body, field) };
        const tampered = [...entries];
        tampered[i] = { ...rewritten, hash: hashOf(rewritten) };
        const j = nextOfWriter(entries, i);
        const over = checkpointBreak(checkpoints, (w, seq) => (w === target.writer && seq === target.seq ? 'changed' : 'kept'));
        if (j >= 0) {
          seen.link++;
          broken({ entries: tampered, checkpoints }, { reason: 'link', writer: target.writer, seq: target.seq + 1, index: j });
        } else if (over) {
          seen[over.via]++;
          broken({ entries: tampered, checkpoints }, over.first);
        } else {
          // The documented limit (docs/audit.md): a writer's last entry, re-hashed, that no checkpoint names or saw.
          seen.verifies++;
          verifies({ entries: tampered, checkpoints });
        }
      }),
      RUNS,
    );
    expect(
      Object.values(seen).every((n) => n > 0),
      JSON.stringify(seen),
    ).toBe(true);
  });

  it("names the writer's next entry after one deleted (order), or the first checkpoint naming it (truncated); else it verifies", () => {
    const seen = { order: 0, own: 0, seen: 0, verifies: 0 };
    fc.assert(
      fc.property(withEntries, fc.boolean(), ([h, pick], last) => {
        const { entries, checkpoints } = build(h);
        const lasts = entries.flatMap((_, k) => (nextOfWriter(entries, k) < 0 ? [k] : []));
        const i = last ? (lasts[pick % lasts.length] as number) : pick % entries.length;
        const target = entries[i] as ChainEntry;
        const tampered = entries.filter((_, k) => k !== i);
        const j = nextOfWriter(entries, i);
        // Checkpoints name entries that are there when signed; a last entry's seq is named by none beyond it.
        const named = checkpointBreak(checkpoints, (w, seq) => (w === target.writer && seq === target.seq ? 'gone' : 'kept'));
        if (j >= 0) {
          seen.order++;
          // It now stands one place earlier, after the entry before the one deleted.
          broken({ entries: tampered, checkpoints }, { reason: 'order', writer: target.writer, seq: target.seq + 1, index: j - 1 });
        } else if (named) {
          seen[named.via]++;
          expect(named.first.reason).toBe('truncated');
          broken({ entries: tampered, checkpoints }, named.first);
        } else {
          seen.verifies++;
          verifies({ entries: tampered, checkpoints });
        }
      }),
      RUNS,
    );
    expect(
      Object.values(seen).every((n) => n > 0),
      JSON.stringify(seen),
    ).toBe(true);
  });

  it('names the first of two swapped entries of one writer, as it now stands: order', () => {
    fc.assert(
      fc.property(withEntries, fc.nat(), ([h, pick], other) => {
        const { entries, checkpoints } = build(h);
        const i = pick % entries.length;
        const later = entries.flatMap((e, k) => (k > i && e.writer === entries[i]?.writer ? [k] : []));
        fc.pre(later.length > 0);
        const j = later[other % later.length] as number;
        const tampered = [...entries];
        tampered[i] = entries[j] as ChainEntry;
        tampered[j] = entries[i] as ChainEntry;
        const moved = entries[j] as ChainEntry;
        broken({ entries: tampered, checkpoints }, { reason: 'order', writer: moved.writer, seq: moved.seq, index: i });
      }),
      RUNS,
    );
  });

  it('names where a forged entry inserted in the middle of a chain breaks it: order, or link', () => {
    const how = fc.constantFrom('kept', 'renumbered', 'unlinked');
    fc.assert(
      fc.property(withEntries, fc.nat(), how, body, ([h, pick], spot, forgery, forgedBody) => {
        const { entries, checkpoints } = build(h);
        // The forged entry takes the place (seq) of `target`, somewhere after the writer's entry before it.
        const i = pick % entries.length;
        const target = entries[i] as ChainEntry;
        const before = entries.findIndex((e) => e.writer === target.writer && e.seq === target.seq - 1);
        const p = before + 1 + (spot % (i - before));
        const unsigned = {
          writer: target.writer,
          seq: target.seq,
          kind: 'decision',
          at: target.at,
          body: forgedBody,
          // Linked to the entry before it, as an attacker would; or not, to the target's own hash.
          prev: forgery === 'unlinked' ? target.hash : target.prev,
        };
        const forged = { ...unsigned, hash: hashOf(unsigned) };
        // The writer's entries from the target on, moved one place along (renumbered, not re-hashed), or left as they were.
        const after = entries.map((e) =>
          forgery === 'renumbered' && e.writer === target.writer && e.seq >= target.seq ? { ...e, seq: e.seq + 1 } : e,
        );
        const tampered = [...after.slice(0, p), forged, ...after.slice(p)];
        if (forgery === 'unlinked') {
          broken({ entries: tampered, checkpoints }, { reason: 'link', writer: target.writer, seq: target.seq, index: p });
        } else if (forgery === 'kept') {
          broken({ entries: tampered, checkpoints }, { reason: 'order', writer: target.writer, seq: target.seq, index: i + 1 });
        } else {
          // Its place now right, but it names the entry before the forged one, not the forged one.
          broken({ entries: tampered, checkpoints }, { reason: 'link', writer: target.writer, seq: target.seq + 1, index: i + 1 });
        }
      }),
      RUNS,
    );
  });

  it("names the first checkpoint naming or having seen a writer's last entries truncated after it was signed: truncated", () => {
    const seen = { own: 0, seen: 0 };
    fc.assert(
      fc.property(history, fc.nat(), fc.nat(), (h, pick, cut) => {
        const { entries, checkpoints } = build(h);
        fc.pre(checkpoints.length > 0);
        const c = checkpoints[pick % checkpoints.length] as Checkpoint;
        // The writer's chain cut back to `keep` entries, 0 ≤ keep < c.seq: the last k = (its length - keep) gone.
        const keep = cut % c.seq;
        const tampered = entries.filter((e) => e.writer !== c.writer || e.seq <= keep);
        // c itself names a place gone, so some checkpoint fails, at c's place at the latest.
        const first = checkpointBreak(checkpoints, (w, seq) => (w === c.writer && seq > keep ? 'gone' : 'kept')) as CheckpointBreak;
        expect(first.first).toMatchObject({ reason: 'truncated', writer: c.writer });
        expect(first.first.checkpoint).toBeLessThanOrEqual(checkpoints.indexOf(c));
        seen[first.via]++;
        broken({ entries: tampered, checkpoints }, first.first);
      }),
      RUNS,
    );
    expect(
      Object.values(seen).every((n) => n > 0),
      JSON.stringify(seen),
    ).toBe(true);
  });

  it("names the first checkpoint that saw another writer's entry rewritten or cut away: checkpoint, or truncated", () => {
    const how = fc.constantFrom('rewritten', 'truncated');
    const seen = { rewritten: 0, truncated: 0 };
    fc.assert(
      fc.property(history, fc.nat(), fc.nat(), fc.nat(), how, (h, pick, at, field, edit) => {
        const { entries, checkpoints } = build(h);
        // The heads the checkpoints saw of other writers, each with the checkpoint's place.
        const heads = checkpoints.flatMap((c, k) =>
          Object.entries(c.seen).flatMap(([writer, s]) => (s.seq > 0 ? [{ k, writer, seq: s.seq }] : [])),
        );
        fc.pre(heads.length > 0);
        const { k, writer, seq } = heads[pick % heads.length] as (typeof heads)[number];
        // From an entry at or before the one seen, the writer's chain is cut away, or rewritten: the entry changed
        // and it and every later one re-hashed and re-linked, as a writer rewriting its own history would.
        const from = 1 + (at % seq);
        const tampered: ChainEntry[] = [];
        let head: ChainHead | undefined;
        for (const e of entries) {
          if (e.writer !== writer || e.seq < from) tampered.push(e);
          else if (edit === 'rewritten') {
            const prev = head?.hash ?? e.prev;
            const rewritten = { ...e, prev, body: e.seq === from ? changed(e.body, field) : e.body };
            const entry = { ...rewritten, hash: hashOf(rewritten) };
            tampered.push(entry);
            head = headAfter(entry);
          }
        }
        const place = (w: string, s: number): Place => (w !== writer || s < from ? 'kept' : edit === 'rewritten' ? 'changed' : 'gone');
        const first = checkpointBreak(checkpoints, place) as CheckpointBreak;
        // The checkpoint at k saw a place the edit reached, so the first break is there or before it.
        expect(first.first.checkpoint).toBeLessThanOrEqual(k);
        expect(first.first).toMatchObject({ reason: edit === 'rewritten' ? 'checkpoint' : 'truncated', writer });
        seen[edit]++;
        broken({ entries: tampered, checkpoints }, first.first);
      }),
      RUNS,
    );
    expect(
      Object.values(seen).every((n) => n > 0),
      JSON.stringify(seen),
    ).toBe(true);
  });

  it('names a checkpoint that saw an entry of another writer the record lost or changed, in a record of two', () => {
    const a = generateKeyPairSync('ed25519');
    const b = generateKeyPairSync('ed25519');
    const keys = new Map([
      ['a', a.publicKey],
      ['b', b.publicKey],
    ]);
    const a1 = nextEntry({ writer: 'a', seq: 0, hash: GENESIS }, 'decision', time(0), { n: 1 });
    const a2 = nextEntry(headAfter(a1), 'decision', time(1), { n: 2 });
    const b1 = nextEntry({ writer: 'b', seq: 0, hash: GENESIS }, 'decision', time(2), { n: 3 });
    // b's own checkpoint first, then one of b seeing a at 2, then one of a at 1 seeing nothing of b yet.
    const own = signCheckpoint(headAfter(b1), time(3), {}, b.privateKey);
    const saw = signCheckpoint(headAfter(b1), time(4), { a: { seq: 2, head: a2.hash } }, b.privateKey);
    const early = signCheckpoint(headAfter(a1), time(5), { b: { seq: 0, head: GENESIS } }, a.privateKey);
    const checkpoints = [own, saw, early];
    expect(verifyRecord([a1, a2, b1], checkpoints, keys)).toEqual({ ok: true, entries: 3, checkpoints: 3 });
    const at = { writer: 'a', seq: 2, index: null, checkpoint: 1 };
    broken({ entries: [a1, b1], checkpoints }, { ...at, reason: 'truncated' }, keys);
    const other = { ...a2, body: { n: 4 } };
    broken({ entries: [a1, { ...other, hash: hashOf(other) }, b1], checkpoints }, { ...at, reason: 'checkpoint' }, keys);
    // A checkpoint's own position is checked before what it saw: with a2 and b1 both changed, the checkpoint of b
    // that saw a at 2, given first, is named for b1.
    const b1x = { ...b1, body: { n: 5 } };
    broken(
      { entries: [a1, { ...other, hash: hashOf(other) }, { ...b1x, hash: hashOf(b1x) }], checkpoints: [saw, own, early] },
      { writer: 'b', seq: 1, index: null, checkpoint: 0, reason: 'checkpoint' },
      keys,
    );
    // And the checkpoints in the order given: the one of a at 1, first, fails over a changed a1 before b's do.
    const a1x = { ...a1, body: { n: 6 } };
    const a1y = { ...a1x, hash: hashOf(a1x) };
    const a2y = { ...a2, prev: a1y.hash, hash: hashOf({ ...a2, prev: a1y.hash }) };
    broken(
      { entries: [a1y, a2y, b1], checkpoints: [early, saw, own] },
      { writer: 'a', seq: 1, index: null, checkpoint: 0, reason: 'checkpoint' },
      keys,
    );
    broken({ entries: [a1y, a2y, b1], checkpoints }, { writer: 'a', seq: 2, index: null, checkpoint: 1, reason: 'checkpoint' }, keys);
  });

  it('refuses an entry of a writer with no public key, at that entry, whatever else it holds: unknown_writer', () => {
    const how = fc.constantFrom('key dropped', 'stranger');
    fc.assert(
      fc.property(withEntries, how, fc.nat(), fc.nat(), body, ([h, pick], edit, spot, seq, strangerBody) => {
        const { entries, checkpoints } = build(h);
        if (edit === 'key dropped') {
          // A writer of the record whose key is not given: its first entry is where the record fails.
          const writer = (entries[pick % entries.length] as ChainEntry).writer;
          const keys = new Map([...PUBLIC].filter(([w]) => w !== writer));
          const i = entries.findIndex((e) => e.writer === writer);
          broken({ entries, checkpoints }, { reason: 'unknown_writer', writer, seq: 1, index: i }, keys);
        } else {
          // An entry of a writer no key is given for, at any place and seq, hashed or not, linked to anything.
          const p = spot % (entries.length + 1);
          const unsigned = { writer: 'stranger', seq, kind: 'decision', at: time(p), body: strangerBody, prev: GENESIS };
          const stranger = { ...unsigned, hash: pick % 2 === 0 ? hashOf(unsigned) : 'f'.repeat(64) };
          const tampered = [...entries.slice(0, p), stranger, ...entries.slice(p)];
          broken({ entries: tampered, checkpoints }, { reason: 'unknown_writer', writer: 'stranger', seq, index: p });
        }
      }),
      RUNS,
    );
  });

  it('refuses a checkpoint of a writer with no public key, at its place among the checkpoints: unknown_writer', () => {
    fc.assert(
      fc.property(history, fc.nat(), (h, spot) => {
        const { entries, checkpoints } = build(h);
        const q = spot % (checkpoints.length + 1);
        const stranger = signCheckpoint({ writer: 'stranger', seq: 1, hash: 'f'.repeat(64) }, time(0), {}, OUTSIDER);
        const tampered = [...checkpoints.slice(0, q), stranger, ...checkpoints.slice(q)];
        broken({ entries, checkpoints: tampered }, { reason: 'unknown_writer', writer: 'stranger', seq: 1, index: null, checkpoint: q });
      }),
      RUNS,
    );
  });

  it("refuses a checkpoint signed by another writer's key, or changed after signing: signature", () => {
    const how = fc.constantFrom('other key', 'outsider key', 'head', 'seq', 'seen', 'at', 'signature');
    fc.assert(
      fc.property(history, fc.nat(), how, fc.nat(), (h, pick, forgery, n) => {
        const { entries, checkpoints } = build(h);
        fc.pre(checkpoints.length > 0);
        const q = pick % checkpoints.length;
        const c = checkpoints[q] as Checkpoint;
        const head = { writer: c.writer, seq: c.seq, hash: c.head };
        const others = WRITERS.filter((w) => w !== c.writer);
        const forged: Checkpoint =
          forgery === 'other key'
            ? signCheckpoint(head, c.at, c.seen, KEYS.get(others[n % others.length] as string) as KeyObject)
            : forgery === 'outsider key'
              ? signCheckpoint(head, c.at, c.seen, OUTSIDER)
              : forgery === 'head'
                ? // Another head: another entry's of the record, or one no entry has.
                  { ...c, head: (n % 2 === 0 && entries.find((e) => e.hash !== c.head)?.hash) || 'f'.repeat(64) }
                : forgery === 'seq'
                  ? { ...c, seq: c.seq + 1 + (n % 3) }
                  : forgery === 'seen'
                    ? { ...c, seen: { ...c.seen, [c.writer === 'node-a' ? 'node-b' : 'node-a']: { seq: n, head: 'f'.repeat(64) } } }
                    : forgery === 'at'
                      ? { ...c, at: time(n + 10_000) }
                      : { ...c, signature: flip(c.signature, n) };
        const tampered = checkpoints.map((x, k) => (k === q ? forged : x));
        broken(
          { entries, checkpoints: tampered },
          { reason: 'signature', writer: forged.writer, seq: forged.seq, index: null, checkpoint: q },
        );
      }),
      RUNS,
    );
  });

  it('has one canonical form, whatever order a body was built in', () => {
    const a = { writer: 'w', seq: 1, kind: 'k', at: 't', body: { b: '1', a: ['x', { d: 1, c: null }] }, prev: GENESIS };
    const b = { prev: GENESIS, body: { a: ['x', { c: null, d: 1 }], b: '1' }, at: 't', kind: 'k', seq: 1, writer: 'w' };
    expect(canonicalForm(a)).toBe(canonicalForm(b));
    expect(canonicalForm(a)).toBe(
      `{"at":"t","body":{"a":["x",{"c":null,"d":1}],"b":"1"},"form":1,"kind":"k","prev":"${GENESIS}","seq":1,"writer":"w"}`,
    );
  });
});

/** The signature with one bit of one of its 64 bytes flipped. */
function flip(signature: string, n: number): string {
  const bytes = Buffer.from(signature, 'base64');
  const at = n % bytes.length;
  bytes[at] = (bytes[at] as number) ^ (1 << (n % 8));
  return bytes.toString('base64');
}
