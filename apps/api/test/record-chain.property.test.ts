// The record's chain (server/record/chain.ts) over generated histories of one to three writers with checkpoints: an
// untouched record verifies; any one edit (a body changed, an entry removed, two swapped, one inserted, a
// checkpoint's signature altered or forged, the entries a checkpoint covers truncated) is caught, and the first
// place named is where the edit was made.
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
  nextEntry,
  signCheckpoint,
  verifyRecord,
} from '../src/server/record/chain.ts';

const WRITERS = ['node-a', 'node-b', 'node-c'];
const KEYS = new Map(WRITERS.map((w) => [w, generateKeyPairSync('ed25519')]));
const PUBLIC = new Map<string, KeyObject>([...KEYS].map(([w, k]) => [w, k.publicKey]));

interface Record {
  entries: ChainEntry[];
  checkpoints: Checkpoint[];
}

/** A record as writers would make it: entries interleaved across writers, a checkpoint of a writer every `every`. */
function build(steps: readonly { writer: number; amount: string; tool: string }[], every: number): Record {
  const heads = new Map<string, ChainHead>();
  const entries: ChainEntry[] = [];
  const checkpoints: Checkpoint[] = [];
  for (const [i, step] of steps.entries()) {
    const writer = WRITERS[step.writer] as string;
    const head = heads.get(writer) ?? { writer, seq: 0, hash: GENESIS };
    const entry = nextEntry(head, 'decision', new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), {
      call_id: `c${i}`,
      tool: step.tool,
      amount: step.amount,
    });
    entries.push(entry);
    heads.set(writer, headAfter(entry));
    if (entry.seq % every === 0) {
      const seen = Object.fromEntries([...heads].filter(([w]) => w !== writer).map(([w, h]) => [w, { seq: h.seq, head: h.hash }]));
      checkpoints.push(signCheckpoint(headAfter(entry), entry.at, seen, KEYS.get(writer)?.privateKey as KeyObject));
    }
  }
  return { entries, checkpoints };
}

const steps = fc.array(
  fc.record({
    writer: fc.integer({ min: 0, max: 2 }),
    amount: fc.stringMatching(/^[0-9]{1,4}(\.[0-9]{1,2})?$/),
    tool: fc.constantFrom('issue_refund', 'read_order', 'send_payout'),
  }),
  { minLength: 2, maxLength: 40 },
);

describe("the record's chain", () => {
  it('verifies an untouched record', () => {
    fc.assert(
      fc.property(steps, fc.integer({ min: 1, max: 6 }), (s, every) => {
        const record = build(s, every);
        expect(verifyRecord(record.entries, record.checkpoints, PUBLIC)).toEqual({
          ok: true,
          entries: record.entries.length,
          checkpoints: record.checkpoints.length,
        });
      }),
    );
  });

  it('names the first entry of an edit to the entries (property)', () => {
    const edit = fc.constantFrom('body', 'remove', 'swap', 'insert', 'relink');
    fc.assert(
      fc.property(steps, fc.integer({ min: 1, max: 6 }), edit, fc.nat(), (s, every, kind, pick) => {
        const { entries, checkpoints } = build(s, every);
        const i = pick % entries.length;
        const target = entries[i] as ChainEntry;
        const tampered = [...entries];
        let expected: { writer: string; seq: number };
        if (kind === 'body') {
          tampered[i] = { ...target, body: { ...target.body, amount: `${target.body.amount}0` } };
          expected = target;
        } else if (kind === 'remove') {
          tampered.splice(i, 1);
          // The next entry of the same writer is the first whose place is wrong; with none, a checkpoint may cover it.
          const next = entries.slice(i + 1).find((e) => e.writer === target.writer);
          if (!next) {
            const covered = checkpoints.some((c) => c.writer === target.writer && c.seq >= target.seq);
            const verdict = verifyRecord(tampered, checkpoints, PUBLIC);
            expect(verdict.ok).toBe(!covered);
            return;
          }
          expected = next;
        } else if (kind === 'swap') {
          const j = entries.findIndex((e, k) => k > i && e.writer === target.writer);
          if (j < 0) return;
          tampered[i] = entries[j] as ChainEntry;
          tampered[j] = target;
          expected = entries[j] as ChainEntry;
        } else if (kind === 'insert') {
          // A forged entry that claims the target's place, linked and hashed right: the target itself then is out of order.
          const forged = { ...target, body: { call_id: 'forged' } };
          tampered.splice(i, 0, { ...forged, hash: hashOf(forged) });
          expected = target;
        } else {
          // Rewritten whole, its hash recomputed: it still no longer links to the next one, or a checkpoint says so.
          const rewritten = { ...target, body: { ...target.body, tool: 'export_customers' } };
          tampered[i] = { ...rewritten, hash: hashOf(rewritten) };
          const next = entries.slice(i + 1).find((e) => e.writer === target.writer);
          const verdict = verifyRecord(tampered, checkpoints, PUBLIC);
          if (next) expect(verdict).toMatchObject({ ok: false, first: { writer: next.writer, seq: next.seq, reason: 'link' } });
          else {
            const covered = checkpoints.some((c) => c.writer === target.writer && c.seq >= target.seq);
            expect(verdict.ok).toBe(!covered);
            if (!verdict.ok) expect(verdict.first).toMatchObject({ writer: target.writer, seq: target.seq, reason: 'checkpoint' });
          }
          return;
        }
        const verdict = verifyRecord(tampered, checkpoints, PUBLIC);
        expect(verdict.ok).toBe(false);
        if (!verdict.ok) expect([verdict.first.writer, verdict.first.seq]).toEqual([expected.writer, expected.seq]);
      }),
    );
  });

  it('catches an altered or forged checkpoint, and entries truncated under one', () => {
    fc.assert(
      fc.property(steps, fc.integer({ min: 1, max: 4 }), fc.nat(), (s, every, pick) => {
        const { entries, checkpoints } = build(s, every);
        fc.pre(checkpoints.length > 0);
        const c = checkpoints[pick % checkpoints.length] as Checkpoint;
        const others = checkpoints.filter((x) => x !== c);
        const altered = { ...c, seq: c.seq, head: c.head, signature: Buffer.from('x'.repeat(64)).toString('base64') };
        expect(verifyRecord(entries, [...others, altered], PUBLIC)).toMatchObject({ ok: false, first: { reason: 'signature' } });
        // Signed by another writer's key: not this writer's checkpoint.
        const other = WRITERS.find((w) => w !== c.writer) as string;
        const forged = signCheckpoint(
          { writer: c.writer, seq: c.seq, hash: c.head },
          c.at,
          c.seen,
          KEYS.get(other)?.privateKey as KeyObject,
        );
        expect(verifyRecord(entries, [...others, forged], PUBLIC)).toMatchObject({ ok: false, first: { reason: 'signature' } });
        // The writer's entries from the checkpoint's on removed: the checkpoint names what is gone.
        const kept = entries.filter((e) => e.writer !== c.writer || e.seq < c.seq);
        expect(verifyRecord(kept, checkpoints, PUBLIC)).toMatchObject({ ok: false });
      }),
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
