// Routes: the policy templates, for the console. List them with their parameters, and draft a policy from
// one; nothing is stored or activated.
import { createRoute, z } from '@hono/zod-openapi';
import { createFromTemplate, getTemplate, listTemplates } from '@tollgate/engine';
import { diagnosticJson } from '@tollgate/engine/source';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { nameParam } from './path-params.ts';
import { EngineObject, ERRORS, errorResponse, jsonRequest, jsonResponse, members, notFound } from './route-kit.ts';

const TemplateParameter = z
  .object({
    name: z.string(),
    type: z.enum(['currency', 'amount', 'integer', 'patterns']),
    description: z.string(),
    default: z.string(),
  })
  .openapi('TemplateParameter');
const TemplateBody = z.strictObject({ params: z.record(z.string(), z.string()).optional() }).openapi('PolicyTemplateBody');

const listTemplatesRoute = createRoute({
  method: 'get',
  path: '/policies/templates',
  middleware: [members()] as const,
  operationId: 'listPolicyTemplates',
  tags: ['policies'],
  summary: 'The policy templates and their parameters.',
  responses: {
    200: jsonResponse(
      z.array(z.object({ name: z.string(), title: z.string(), description: z.string(), parameters: z.array(TemplateParameter) })),
      'Every template.',
    ),
    401: ERRORS[401],
    403: ERRORS[403],
  },
});

const createTemplateRoute = createRoute({
  method: 'post',
  path: '/policies/templates/{name}',
  middleware: [members()] as const,
  operationId: 'draftPolicyFromTemplate',
  tags: ['policies'],
  summary: 'Draft a policy from a template; nothing is stored or activated.',
  request: {
    params: z.object({ name: nameParam({ name: 'name', description: 'The template name', example: 'refund-limit' }) }),
    ...jsonRequest(TemplateBody),
  },
  responses: {
    200: jsonResponse(
      z.object({
        template: z.string(),
        parameters: z.record(z.string(), z.string()),
        document: EngineObject('The drafted policy document (policy@1).'),
        examples: EngineObject('An example suite for the draft: {tools, examples}.'),
        notes: z.record(z.string(), z.string()),
        delegation: EngineObject('A hint of the agent document that would run the draft.'),
      }),
      'The draft: document, examples, notes and a delegation hint.',
    ),
    ...ERRORS,
    404: errorResponse('NOT_FOUND (details.resource "template"): no template by this name.'),
    422: errorResponse('INVALID_PARAMETERS: details.problems give each (UNKNOWN_PARAMETER, INVALID_PARAMETER, PARAMETER_ORDER).'),
  },
});

/** The policy templates and drafts from them, for members. */
export function policyTemplateRoutes() {
  const app = router();

  app.openapi(listTemplatesRoute, (c) => {
    return c.json(
      listTemplates().map(({ name, title, description, parameters }) => ({ name, title, description, parameters: [...parameters] })),
      200,
    );
  });

  app.openapi(createTemplateRoute, (c) => {
    const { name } = c.req.valid('param');
    if (!getTemplate(name)) throw notFound('template', `there is no template "${name}"`);
    const draft = createFromTemplate(name, c.req.valid('json').params ?? {});
    if (!draft.ok) {
      const first = draft.errors[0];
      throw new ApiError('INVALID_PARAMETERS', `the parameters are not valid: ${first?.code}: ${first?.message}`, {
        problems: draft.errors.map(diagnosticJson),
      });
    }
    const { ok: _ok, ...rest } = draft;
    return c.json(rest, 200);
  });

  return app;
}
