// tollgate audit verify-receipt FILE: a decision's receipt (GET /v1/decisions/{call_id}/receipt) checked offline,
// with no server and no database, against only the public keys it holds (docs/audit.md, "Receipts"): read by the
// exact reader, then checked by server/record/receipt-verify.ts. Exit 0 verified, 1 broken (RECEIPT_BROKEN, naming
// what failed), 2 unreadable (RECEIPT_UNREADABLE).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readJsonText } from '@tollgate/engine/source';
import { z } from 'zod';
import type { JsonValue } from '../../server/record/chain.ts';
import { type ReadReceipt, verifyReceipt } from '../../server/record/receipt-verify.ts';
import { CliError, type CliIo, EXIT_INVALID, EXIT_OK } from '../io.ts';
import { readTextFile } from '../read-input.ts';
import { checkpointFields, entryFields, Hex64, holdsKeptNumber, Key, Name, Seq, signerFields } from './record-shapes.ts';

/** The largest receipt read: a path of 10,000 entries (record/receipt.ts) is far under it. */
const MAX_RECEIPT_BYTES = 64 * 1024 * 1024;

const Entry = z.object(entryFields).strict();
const Checkpoint = z.object(checkpointFields).strict();
const Receipt = z
  .object({
    receipt: z.literal(1),
    call_id: Name,
    decision: Entry,
    approvals: z.array(Entry),
    documents: z.array(Entry),
    covered: z.boolean(),
    path: z.array(Entry),
    checkpoints: z.array(Checkpoint),
    writers: z.array(z.object({ writer: Name, public_key: Key }).strict()),
    members: z.array(z.object(signerFields).strict()),
    policy: z.array(z.object({ document: Name, version: Seq, sha256: Hex64.nullable() }).strict()),
  })
  .strict();

function unreadable(file: string, why: string): CliError {
  return new CliError('RECEIPT_UNREADABLE', `${file}: RECEIPT_UNREADABLE: ${why}`);
}

function readReceipt(file: string, text: string): { receipt: ReadReceipt; keys: Map<string, KeyObject> } {
  const read = readJsonText(text, { maxLength: MAX_RECEIPT_BYTES, maxDepth: 16 });
  if (!read.ok) throw unreadable(file, `${read.diagnostic.code}: ${read.diagnostic.message}`);
  const [first] = read.diagnostics;
  if (first) throw unreadable(file, `${first.code}: ${first.message}`);
  if (holdsKeptNumber(read.value)) throw unreadable(file, 'a number that is not a whole number of at most 15 digits');
  const parsed = Receipt.safeParse(read.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw unreadable(file, `/${issue?.path.join('/') ?? ''}: ${issue?.message ?? 'not a receipt'}`);
  }
  const { receipt: _form, ...receipt } = parsed.data;
  const keys = new Map<string, KeyObject>();
  for (const { writer, public_key } of receipt.writers) {
    try {
      const key = createPublicKey(public_key);
      if (key.asymmetricKeyType !== 'ed25519') throw new Error('not an Ed25519 key');
      keys.set(writer, key);
    } catch (err) {
      throw unreadable(file, `the public key of writer ${writer} does not read: ${(err as Error).message}`);
    }
  }
  const entry = (e: z.infer<typeof Entry>) => ({ ...e, body: e.body as { [key: string]: JsonValue } });
  return {
    receipt: {
      ...receipt,
      decision: entry(receipt.decision),
      approvals: receipt.approvals.map(entry),
      documents: receipt.documents.map(entry),
      path: receipt.path.map(entry),
    },
    keys,
  };
}

export function auditVerifyReceipt(file: string, options: { json?: boolean }, io: CliIo): number {
  const { receipt, keys } = readReceipt(file, readTextFile(file, MAX_RECEIPT_BYTES));
  const verdict = verifyReceipt(receipt, keys);
  if (verdict.ok) {
    const { ok: _ok, ...what } = verdict;
    if (options.json) io.stdout.write(`${JSON.stringify({ verified: true, call_id: receipt.call_id, ...what })}\n`);
    else
      io.stdout.write(
        `audit verify-receipt: call ${receipt.call_id}: decision entry ${verdict.decision.seq} of ${verdict.decision.writer}, ` +
          `${verdict.approvals} approval entries, ${verdict.documents} chained document version(s), ${verdict.path} path entries to ${verdict.checkpoints} signed checkpoint(s), ` +
          `${verdict.members} member signature(s): verified\n`,
      );
    return EXIT_OK;
  }
  // A broken receipt is the verdict, not a failure of the command: said on stderr, and as JSON when asked.
  if (options.json) io.stdout.write(`${JSON.stringify({ verified: false, reason: verdict.reason, message: verdict.message })}\n`);
  io.stderr.write(`${file}: RECEIPT_BROKEN (${verdict.reason}): ${verdict.message}\n`);
  return EXIT_INVALID;
}
