// Route: a decision's receipt (docs/audit.md, "Receipts"), for members as the decision itself is: its entry in the
// record, its approval's entries, the path from them to the checkpoints that cover them, those checkpoints and the
// public keys that verify them, checked offline by `tollgate audit verify-receipt` (record/receipt-verify.ts).
import { createRoute, z } from '@hono/zod-openapi';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { buildReceipt, MAX_RECEIPT_PATH } from '../record/receipt.ts';
import { nameParam } from './path-params.ts';
import { ERRORS, errorResponse, exactJson, jsonResponse, members, notFound } from './route-kit.ts';

const CallParam = z.object({
  call_id: nameParam({ name: 'call_id', description: 'The call id, URL-encoded', example: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' }),
});

const Entry = z
  .object({
    writer: z.string(),
    seq: z.number().int(),
    kind: z.string(),
    at: z.string(),
    body: z.record(z.string(), z.unknown()),
    prev: z.string(),
    hash: z.string(),
  })
  .openapi('RecordEntry', { description: "An entry of a writer's chain, its body restated from its row as it stands (docs/audit.md)." });

const Checkpoint = z
  .object({
    writer: z.string(),
    seq: z.number().int(),
    head: z.string(),
    at: z.string(),
    seen: z.record(z.string(), z.object({ seq: z.number().int(), head: z.string() })),
    signature: z.string(),
  })
  .openapi('RecordCheckpoint', { description: "A writer's signed statement of its chain's position and head (docs/audit.md)." });

const ReceiptSchema = z
  .object({
    receipt: z.literal(1),
    call_id: z.string(),
    decision: Entry,
    approvals: z
      .array(Entry)
      .openapi({ description: "The call's approval request's entries (requested, decided, claimed), if it was held." }),
    documents: z.array(Entry).openapi({
      description:
        "The document.changed entry of each version that decided, where the record holds one a checkpoint covers: it chains the version's text digest.",
    }),
    covered: z.boolean().openapi({
      description: `Whether a checkpoint covers every entry within ${MAX_RECEIPT_PATH} entries; false: no path nor checkpoints (another writer has not signed one yet).`,
    }),
    path: z
      .array(Entry)
      .openapi({ description: 'Each writer’s entries from the stated ones up to the checkpoints covering them, in order.' }),
    checkpoints: z.array(Checkpoint),
    writers: z.array(z.object({ writer: z.string(), public_key: z.string() })),
    members: z.array(z.object({ member: z.string(), public_key: z.string() })),
    policy: z.array(z.object({ document: z.string(), version: z.number().int(), sha256: z.string().nullable() })).openapi({
      description:
        "The versions that decided (the decision's versions, which the chain states) with the SHA-256 of the store's text of each now (not chained; null when the store has none).",
    }),
  })
  .openapi('DecisionReceipt');

const receiptRoute = createRoute({
  method: 'get',
  path: '/decisions/{call_id}/receipt',
  summary: "A decision's receipt: its record entries, the path to a signed checkpoint and the keys to verify it offline (members).",
  middleware: [members()] as const,
  request: { params: CallParam },
  responses: {
    200: jsonResponse(ReceiptSchema, 'The receipt (verify it with tollgate audit verify-receipt).'),
    401: ERRORS[401],
    403: ERRORS[403],
    404: errorResponse('NOT_FOUND: no decision with this call id.'),
    409: errorResponse('NOT_RECORDED: the decision is older than the record, so it has no entry.'),
  },
});

export function decisionReceiptRoutes() {
  const app = router();
  app.openapi(receiptRoute, async (c) => {
    const { call_id } = c.req.valid('param');
    const ctx = c.get('ctx');
    const answer = await buildReceipt(ctx.state, ctx.store, call_id);
    if (!answer.ok) {
      if (answer.why === 'not_found') throw notFound('decision', `no decision with call id ${call_id}`);
      throw new ApiError('NOT_RECORDED', `the decision of call ${call_id} is older than the record: it has no entry`);
    }
    return exactJson(c, answer.receipt, 200);
  });
  return app;
}
