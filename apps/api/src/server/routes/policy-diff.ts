// Route: the decision diff of two policy texts sent in the body, as `tollgate policy diff --json` prints it for two
// files (docs/review.md, "In the API and the CLI"): the same review task (review/answers.ts), on the compile thread
// for big texts, over the tools given, a catalogue's, or every class of tools the two texts tell apart. Keeps nothing.
import { createRoute, z } from '@hono/zod-openapi';
import { documentKindOf, type ToolBinding } from '@tollgate/engine';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import type { DiffJson } from '../review/answers.ts';
import { judgedMembers, review } from '../review/sources.ts';
import { workspaceCatalogue } from '../rulesets/ruleset-versions.ts';
import { bindingOf } from '../state/tools/model.ts';
import { toolsOf } from './policies.ts';
import { DecisionDiffSchema } from './review-schemas.ts';
import { ERRORS, errorResponse, jsonRequest, jsonResponse, members } from './route-kit.ts';

const PolicyText = (side: string) =>
  z.string().openapi({
    description: `The ${side} policy as text: JSON, read exactly as a stored version is (a member named twice or a number not stated exactly is refused).`,
  });

const DiffBody = z
  .strictObject({
    running: PolicyText('running'),
    candidate: PolicyText('candidate'),
    tools: z.array(z.unknown()).optional().openapi({
      description: 'The tools to diff over: [{name, action, amount?}]. Or give catalogue; with neither, every class of tools.',
    }),
    catalogue: z
      .string()
      .refine((id) => documentKindOf(id) === 'catalogue', { message: 'a catalogue document id: catalogue.yaml or catalogues/NAME.yaml' })
      .optional()
      .openapi({ description: "A catalogue document's id: the diff is over the tools of its running version.", example: 'catalogue.yaml' }),
  })
  .refine((b) => b.tools === undefined || b.catalogue === undefined, { message: 'give tools or catalogue, not both', path: ['catalogue'] })
  .openapi('PolicyDiffBody');

const diffRoute = createRoute({
  method: 'post',
  path: '/policies/diff',
  middleware: [members()] as const,
  operationId: 'diffPolicies',
  tags: ['policies'],
  summary: 'Every region of calls whose decision changes between two policy texts, as `tollgate policy diff --json` prints it.',
  request: jsonRequest(DiffBody),
  responses: {
    200: jsonResponse(DecisionDiffSchema, 'The changes, in the order the CLI prints them.'),
    ...ERRORS,
    409: errorResponse('CATALOGUE_MISSING (the catalogue has no running version) or CATALOGUE_NOT_LOADABLE.'),
    413: errorResponse('TOO_LARGE: the body is over the limit (docs/api.md, "Limits").'),
    422: errorResponse(
      'INVALID_POLICY: a text does not read or is not a valid policy; details.side says which (running or candidate), details.problems where (line and column, or a JSON Pointer). INVALID_TOOLS (details.problems).',
    ),
  },
});

/** The decision diff of two texts in the body, for members. */
export function policyDiffRoutes() {
  const app = router();

  app.openapi(diffRoute, async (c) => {
    const ctx = c.get('ctx');
    const body = c.req.valid('json');
    const tools: ToolBinding[] | undefined =
      body.catalogue === undefined ? toolsOf(body.tools) : (await workspaceCatalogue(ctx, body.catalogue)).tools.map(bindingOf);
    const answer = await review<{ ok: true; diff: DiffJson }>(
      { diff: { running: body.running, candidate: body.candidate, tools, members: await judgedMembers(ctx) } },
      'the diff',
      c.req.raw.signal,
      (refused) =>
        new ApiError('INVALID_POLICY', `the ${refused.which} text is not a valid policy: ${refused.problems[0]?.message ?? ''}`, {
          side: refused.which,
          problems: refused.problems,
        }),
    );
    return c.json(answer.diff, 200);
  });

  return app;
}
