// A decision's receipt (docs/audit.md, "Receipts") when its entry is another writer's, on both state stores: a
// node's entry no checkpoint covers yet answers `covered: false` with no path (the server signs only its own
// writer's checkpoints), and once that node signs one, the receipt is covered by it and verifies with the keys it
// holds; the server's own uncovered entry gets a checkpoint signed first.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { MemoryDocumentStore } from '@tollgate/store';
import { describe, expect, it } from 'vitest';
import { buildReceipt, type Receipt } from '../src/server/record/receipt.ts';
import { verifyReceipt } from '../src/server/record/receipt-verify.ts';
import type { StateStore } from '../src/server/state/state-store.ts';
import { BACKENDS, decisionRow, titleOf } from './state-contract-backends.ts';

const store = new MemoryDocumentStore();

async function decide(state: StateStore): Promise<string> {
  const row = decisionRow({ decision: 'allow' });
  await state.recordDecision(row.agent, undefined, () => ({ row }));
  await state.flushDecisions();
  return row.call_id;
}

async function receiptOf(state: StateStore, callId: string): Promise<Receipt> {
  const answer = await buildReceipt(state, store, callId);
  if (!answer.ok) throw new Error(`no receipt: ${answer.why}`);
  return answer.receipt;
}

function keysOf(receipt: Receipt): Map<string, KeyObject> {
  return new Map(receipt.writers.map((w) => [w.writer, createPublicKey(w.public_key)]));
}

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(`a receipt on the ${titleOf(backend)}`, () => {
    it("is not covered while another writer's entry has no checkpoint, and is once that writer signs one", async () => {
      const f = await backend.open();
      try {
        const callId = await decide(f.b);
        const before = await receiptOf(f.a, callId);
        expect(before).toMatchObject({ covered: false, path: [], checkpoints: [], decision: { writer: f.b.recordWriter.id } });
        expect(verifyReceipt(before, keysOf(before))).toMatchObject({ ok: false, reason: 'uncovered' });
        // The server did not sign for it: a's writer signed nothing.
        expect(await f.a.recordReader.checkpoints(f.a.recordWriter.id)).toEqual([]);

        await f.b.checkpointRecord();
        const after = await receiptOf(f.a, callId);
        expect(after.covered).toBe(true);
        expect(after.checkpoints.map((c) => c.writer)).toEqual([f.b.recordWriter.id]);
        expect(after.writers.map((w) => w.writer)).toEqual([f.b.recordWriter.id]);
        expect(verifyReceipt(after, keysOf(after))).toMatchObject({ ok: true, decision: { writer: f.b.recordWriter.id } });
      } finally {
        await f.close();
      }
    });

    it("signs a checkpoint of its own writer first when none covers the server's entry", async () => {
      const f = await backend.open();
      try {
        const callId = await decide(f.a);
        expect(await f.a.recordReader.checkpoints(f.a.recordWriter.id)).toEqual([]);
        const receipt = await receiptOf(f.a, callId);
        expect(receipt.covered).toBe(true);
        expect(receipt.checkpoints).toEqual(await f.a.recordReader.checkpoints(f.a.recordWriter.id));
        expect(verifyReceipt(receipt, keysOf(receipt)).ok).toBe(true);
        // An unknown call has none.
        expect(await buildReceipt(f.a, store, 'no-such-call')).toEqual({ ok: false, why: 'not_found' });
      } finally {
        await f.close();
      }
    });
  });
}
