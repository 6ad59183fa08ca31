// Routes: the tools of a catalogue with their authorized bindings, and their authorization by an owner or
// admin (docs/catalogue.md, "The authorized binding"). The gate runs a tool's calls only while its binding
// is the one authorized; an authorization names the digest the authorizer reviewed, so a binding changed
// meanwhile is never authorized unseen.
import { createRoute, z } from '@hono/zod-openapi';
import type { CatalogueTool } from '@tollgate/engine';
import { documentKindOf } from '@tollgate/engine';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { readStoredJson } from '../state/stored-json.ts';
import {
  type AuthorizationRow,
  bindingDigest,
  bindingOf,
  definitionState,
  readCatalogueTools,
  type SeenDefinition,
} from '../state/tools/model.ts';
import { documentIdParam, nameParam } from './path-params.ts';
import { errorResponse, jsonBody, jsonResponse, memberOf, members, notFound, storeError } from './route-kit.ts';

const CatalogueParam = documentIdParam(
  { name: 'id', description: 'The catalogue document id', example: 'catalogue.yaml' },
  ['catalogue'],
  'a catalogue id (catalogue.yaml or catalogues/<name>.yaml)',
);
const ToolParam = nameParam({ name: 'name', description: 'The exposed tool name', example: 'issue_refund' });

const AmountMapping = z.object({ pointer: z.string(), currency: z.string(), currency_pointer: z.string().optional() });

const AuthorizationSchema = z
  .object({
    digest: z.string(),
    binding: z.object({ name: z.string(), action: z.string(), amount: AmountMapping.optional() }),
    authorized_by: z.string().openapi({ description: 'The member id, or "system" for bindings recorded by the workspace itself.' }),
    authorized_by_name: z.string(),
    authorized_at: z.iso.datetime({ offset: true }),
  })
  .openapi('ToolAuthorization');

const definitionFields = {
  digest: z.string().openapi({ description: 'sha-256 (hex) of the canonical JSON {server, definition}.' }),
  definition: z
    .record(z.string(), z.unknown())
    .openapi({ description: 'The tool as the upstream defines it: name, title, description, inputSchema, outputSchema, annotations.' }),
};

const ToolUpstreamSchema = z
  .object({
    server: z.string(),
    tool: z.string(),
    state: z.enum(['authorized', 'changed', 'unseen']).openapi({
      description:
        'authorized: the definition seen last is the one pinned; changed: the upstream gave another (the tool is withheld and its MCP calls denied); unseen: no gateway has listed the tool yet (the gateway checks it when it does).',
    }),
    seen: z
      .object({ ...definitionFields, seen_at: z.iso.datetime({ offset: true }) })
      .nullable()
      .openapi({ description: 'The definition the upstream gave when last listed, and since when.' }),
    pinned: z.object(definitionFields).nullable().openapi({ description: 'The definition authorized with the binding, if any.' }),
  })
  .openapi('CatalogueToolUpstream');

const ToolSchema = z
  .object({
    name: z.string(),
    action: z.string(),
    amount: AmountMapping.nullable(),
    digest: z.string().openapi({ description: "sha-256 (hex) of the binding's canonical JSON {name, action, amount?}." }),
    authorized: z.boolean().openapi({ description: 'Whether the binding is the authorized one: only then does the gate run its calls.' }),
    authorization: AuthorizationSchema.nullable().openapi({ description: 'The binding last authorized, when one was.' }),
    upstream: ToolUpstreamSchema.nullable().openapi({
      description:
        'For a tool mapped to an upstream MCP server\'s tool: its definition, seen and pinned (docs/mcp.md, "Pinned tool definitions"). The gateway offers the tool only while both the binding and the definition are authorized.',
    }),
  })
  .openapi('CatalogueToolBinding');

const ToolsSchema = z
  .object({ catalogue: z.string(), sequence: z.number().int(), tools: z.array(ToolSchema) })
  .openapi('CatalogueToolBindings');

const AuthorizeBody = z
  .strictObject({
    digest: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'a sha-256 digest in lowercase hex')
      .openapi({ description: 'The digest of the binding being authorized, as the tools list gave it.' }),
    upstream_digest: z
      .string()
      .regex(/^[0-9a-f]{64}$/, 'a sha-256 digest in lowercase hex')
      .optional()
      .openapi({
        description:
          'For a tool mapped to an upstream: the digest of the upstream definition being authorized (upstream.seen.digest in the tools list). Required for such a tool.',
      }),
  })
  .openapi('ToolAuthorizeBody');

const errors = {
  400: errorResponse('The request is not valid'),
  401: errorResponse('A missing or unknown key'),
  403: errorResponse('A lacking role'),
  404: errorResponse('No such catalogue or tool'),
};

const listRoute = createRoute({
  method: 'get',
  path: '/catalogues/{id}/tools',
  operationId: 'listCatalogueTools',
  tags: ['catalogues'],
  summary: "A catalogue's tools with their bindings and whether each is authorized (members)",
  middleware: [members()] as const,
  request: { params: z.object({ id: CatalogueParam }) },
  responses: { 200: jsonResponse(ToolsSchema, 'The running version’s tools'), ...errors },
});

const authorizeRoute = createRoute({
  method: 'post',
  path: '/catalogues/{id}/tools/{name}/authorize',
  operationId: 'authorizeTool',
  tags: ['catalogues'],
  summary: "Authorizes a tool's current binding, so the gate runs its calls again (owner or admin)",
  middleware: [members('owner', 'admin')] as const,
  request: {
    params: z.object({ id: CatalogueParam, name: ToolParam }),
    body: jsonBody(AuthorizeBody),
  },
  responses: {
    200: jsonResponse(ToolSchema, 'The tool, authorized'),
    ...errors,
    409: errorResponse(
      "BINDING_CHANGED: the binding is no longer the one with that digest; UPSTREAM_DEFINITION_CHANGED or UPSTREAM_DEFINITION_UNSEEN: the upstream's definition is not the one with upstream_digest, or none was seen",
    ),
  },
});

function authorizationJson(row: AuthorizationRow) {
  return {
    digest: row.digest,
    binding: readStoredJson(row.binding) as z.infer<typeof AuthorizationSchema>['binding'],
    authorized_by: row.authorized_by,
    authorized_by_name: row.authorized_by_name,
    authorized_at: row.authorized_at,
  };
}

function definitionJson(canonical: string) {
  return readStoredJson(canonical) as Record<string, unknown>;
}

function upstreamJson(tool: CatalogueTool, authorization: AuthorizationRow | undefined, seen: SeenDefinition | undefined) {
  if (tool.upstream === undefined) return null;
  const pinned =
    authorization?.upstream_digest && authorization.upstream_definition
      ? { digest: authorization.upstream_digest, definition: definitionJson(authorization.upstream_definition) }
      : null;
  return {
    server: tool.upstream.server,
    tool: tool.upstream.tool,
    state: definitionState(pinned?.digest, seen),
    seen: seen ? { digest: seen.digest, definition: definitionJson(seen.definition), seen_at: seen.seen_at } : null,
    pinned,
  };
}

async function toolJson(ctx: AppContext, tool: CatalogueTool, authorization: AuthorizationRow | undefined) {
  const digest = bindingDigest(bindingOf(tool));
  const seen = tool.upstream ? await ctx.state.seenDefinition(tool.upstream.server, tool.upstream.tool) : undefined;
  return {
    name: tool.name,
    action: tool.action,
    amount: tool.amount ?? null,
    digest,
    authorized: authorization?.digest === digest,
    authorization: authorization ? authorizationJson(authorization) : null,
    upstream: upstreamJson(tool, authorization, seen),
  };
}

/** The running catalogue's tools by name, or 404. */
async function runningTools(ctx: AppContext, id: string) {
  if (documentKindOf(id) !== 'catalogue') throw notFound('catalogue', `${id} is not a catalogue id`);
  const doc = await ctx.store.get(id).catch(storeError);
  if (!doc) throw notFound('catalogue', `no version of ${id} runs`);
  return { sequence: doc.sequence, tools: readCatalogueTools(id, doc.text) ?? new Map<string, CatalogueTool>() };
}

/** The catalogue tool routes: list (members) and authorize (owners and admins). */
export function toolBindingRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const { sequence, tools } = await runningTools(ctx, id);
    const authorized = await ctx.state.authorizationsOf(id);
    return c.json(
      { catalogue: id, sequence, tools: await Promise.all([...tools.values()].map((t) => toolJson(ctx, t, authorized.get(t.name)))) },
      200,
    );
  });

  app.openapi(authorizeRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = memberOf(c);
    const { id, name } = c.req.valid('param');
    const { digest, upstream_digest } = c.req.valid('json');
    const { tools } = await runningTools(ctx, id);
    const tool = tools.get(name);
    if (!tool) throw notFound('tool', `${id} has no tool named ${name}`);
    const binding = bindingOf(tool);
    if (bindingDigest(binding) !== digest) {
      throw new ApiError('BINDING_CHANGED', `${name}'s binding is no longer the one with digest ${digest}: read the tools again`, {
        digest: bindingDigest(binding),
      });
    }
    // A tool mapped to an upstream is authorized with the definition its upstream gave when last listed, and
    // only as the authorizer reviewed it: the digest they send must be that definition's.
    let pin: { digest: string; definition: string } | undefined;
    if (tool.upstream !== undefined) {
      const seen = await ctx.state.seenDefinition(tool.upstream.server, tool.upstream.tool);
      if (!seen) {
        throw new ApiError(
          'UPSTREAM_DEFINITION_UNSEEN',
          `no gateway has listed ${tool.upstream.tool} of ${tool.upstream.server} yet: refresh the upstreams, review its definition, then authorize`,
        );
      }
      if (upstream_digest !== seen.digest) {
        throw new ApiError(
          'UPSTREAM_DEFINITION_CHANGED',
          `${name}'s upstream definition is not the one with digest ${upstream_digest ?? '(none sent)'}: review the current one and send its digest`,
          { upstream_digest: seen.digest },
        );
      }
      pin = { digest: seen.digest, definition: seen.definition };
    }
    const row = await ctx.state.authorizeBinding(id, binding, { id: member.id, name: member.name }, ctx.now(), pin);
    return c.json(await toolJson(ctx, tool, row), 200);
  });

  return app;
}
