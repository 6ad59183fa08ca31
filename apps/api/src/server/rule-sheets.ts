// Compiling a rule sheet or Colang (with an optional catalogue), keeping nothing: the body and answer both
// POST /v1/rule-sheets/compile routes share (routes/rules.ts's behind auth, and the ctx-less one here).
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compileBody } from './compile-body.ts';
import { CompileBody } from './compile-body-schema.ts';
import { compileOffLoop } from './compile-thread.ts';
import { errorAnswer } from './errors.ts';
import { exactJsonBody } from './exact-body.ts';
import { validationAnswer } from './openapi.ts';

/**
 * The largest body of the compile route of an app without a data folder (a big sheet or Colang file with its
 * catalogue); every route of the API takes MAX_REQUEST_BODY_BYTES at most (body-limit.ts).
 */
const MAX_RULES_BODY_BYTES = 8 * 1024 * 1024;

/** The ctx-less route (no data folder, no keys): the engine routes' tests and `rules compile --server`. */
export const ruleSheets = new Hono().post(
  '/compile',
  bodyLimit({
    maxSize: MAX_RULES_BODY_BYTES,
    onError: (c) => errorAnswer(c, 'TOO_LARGE', `the body is over ${MAX_RULES_BODY_BYTES} bytes`),
  }),
  exactJsonBody({ maxBytes: MAX_RULES_BODY_BYTES }),
  async (c) => {
    const raw: unknown = await c.req.json().catch(() => undefined);
    if (raw === undefined) return errorAnswer(c, 'INVALID_BODY', 'the body is not JSON', { issues: [] });
    const parsed = CompileBody.safeParse(raw);
    if (!parsed.success) return validationAnswer(c, parsed.error.issues);
    const answer = await compileOffLoop(parsed.data, compileBody);
    return c.json(answer.body, answer.status);
  },
);
