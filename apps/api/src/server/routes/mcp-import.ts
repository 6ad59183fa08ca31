// Route: drafting the gateway from an MCP client's configuration, as `tollgate mcp import` does, for an owner or
// admin in the console. The configuration names variables of the server's environment instead of holding
// values; the server lists each server's tools with them and saves the drafts as versions that do not run
// (docs/mcp.md, "Drafting from the console").
import { createRoute, z } from '@hono/zod-openapi';
import { type Diagnostic, placeProblems, readJsonText } from '@tollgate/engine/source';
import { DiagnosticSchema, diagnosticsJson } from '../diagnostic-schema.ts';
import { ApiError } from '../errors.ts';
import { DEFAULT_IMPORT_TIMEOUT_MS, importDrafts } from '../mcp/import-drafts.ts';
import { namedVariables, unsetVariables } from '../mcp/import-variables.ts';
import { router } from '../openapi.ts';
import { ERRORS, errorResponse, jsonRequest, jsonResponse, memberOf, members, people } from './route-kit.ts';

const AGENT_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const DEFAULT_AGENT = 'mcp-agent';
/** The longest a request may ask each server to take: the CLI's default bound. */
const MAX_TIMEOUT_SECONDS = DEFAULT_IMPORT_TIMEOUT_MS / 1000;

const ImportBody = z
  .object({
    config: z.string().openapi({
      description:
        'The client’s mcpServers JSON as text, every value of env and headers replaced by the NAME of a variable of the server’s environment (never a value).',
      example:
        '{"mcpServers": {"files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv"], "env": {"FILES_TOKEN": "FILES_TOKEN"}}}}',
    }),
    agent: z
      .string()
      .regex(AGENT_NAME, 'an agent name is 1-64 lowercase letters, digits and -')
      .optional()
      .openapi({ default: DEFAULT_AGENT }),
    upstream_timeout_seconds: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMEOUT_SECONDS)
      .optional()
      .openapi({ description: `How long each server may take to start and list its tools; ${MAX_TIMEOUT_SECONDS} unless given.` }),
  })
  .strict()
  .openapi('McpImportRequest');

const ImportResult = z
  .object({
    running: z.literal(false).openapi({ description: 'Nothing drafted runs until a person activates it.' }),
    documents: z.array(z.object({ id: z.string(), sequence: z.number().int(), running: z.literal(false) })),
    servers: z.array(
      z.object({
        key: z.string().openapi({ description: 'The server’s name in the configuration.' }),
        name: z.string().openapi({ description: 'Its name in mcp/servers.yaml.' }),
        listed: z.boolean(),
        tools: z.number().int().optional(),
        code: z.string().optional().openapi({ description: 'Why it could not be listed (UPSTREAM_UNAVAILABLE, ...).' }),
      }),
    ),
    tools: z.array(
      z.object({ name: z.string(), action: z.string(), kind: z.enum(['read', 'write']), server: z.string(), tool: z.string() }),
    ),
    variables: z.array(
      z.object({
        name: z.string(),
        server: z.string(),
        from: z.string().openapi({ description: 'env, or header NAME.' }),
      }),
    ),
    problems: z
      .array(DiagnosticSchema)
      .openapi({ description: 'What was not imported, and why: each with its path in the configuration.' }),
  })
  .openapi('McpImportResult');

const importRoute = createRoute({
  method: 'post',
  path: '/mcp/import',
  operationId: 'importMcpConfig',
  tags: ['mcp'],
  summary:
    'Drafts upstreams, a catalogue, a policy and an agent from an MCP client’s configuration, none running (owner or admin, a person)',
  middleware: [members('owner', 'admin'), people('a model’s key cannot start upstream servers; a person imports')] as const,
  request: jsonRequest(ImportBody),
  responses: {
    201: jsonResponse(ImportResult, 'The drafts saved, none running'),
    ...ERRORS,
    409: errorResponse('DOCUMENT_EXISTS: the catalogue, policy or agent has versions already.'),
    422: errorResponse('INVALID_CLIENT_CONFIG, VARIABLE_NOT_SET, NOTHING_TO_IMPORT or DRAFT_REFUSED, with details.problems.'),
  },
});

/** The import route (owners and admins, a person's key). */
export function mcpImportRoutes() {
  const app = router();

  app.openapi(importRoute, async (c) => {
    const ctx = c.get('ctx');
    const body = c.req.valid('json');
    const agent = body.agent ?? DEFAULT_AGENT;
    // The one exact JSON reader (docs/architecture.md, "Reading hostile input"), problems placed in the text.
    const read = readJsonText(body.config);
    if (!read.ok) throw unreadable([read.diagnostic]);
    if (read.diagnostics.length > 0) throw unreadable(read.diagnostics);
    const named = namedVariables(read.value);
    if (named.problems.length > 0) throw unreadable(placeProblems(named.problems, read.rangeOf));
    // Checked before anything starts: an upstream never runs with a variable missing (docs/mcp.md).
    const unset = unsetVariables(named.variables, process.env);
    if (unset.length > 0) {
      throw new ApiError('VARIABLE_NOT_SET', unset.map((p) => p.message).join('; '), {
        problems: diagnosticsJson(placeProblems(unset, read.rangeOf)),
      });
    }
    const member = memberOf(c);
    const out = await importDrafts(ctx, {
      config: named.config,
      rangeOf: read.rangeOf,
      ids: { catalogue: `catalogues/${agent}.yaml`, policy: `policies/${agent}.policy.json`, agent: `agents/${agent}.agent.yaml` },
      examples: true,
      timeoutMs: (body.upstream_timeout_seconds ?? MAX_TIMEOUT_SECONDS) * 1000,
      env: process.env,
      source: 'the console',
      author: { kind: 'person', label: member.name },
      reason: 'drafted by tollgate mcp import from the console',
      insteadOfExisting: 'choose another agent name',
    });
    const problems = diagnosticsJson(out.problems);
    switch (out.status) {
      case 'not_config':
        throw unreadable(out.problems);
      case 'exists':
        throw new ApiError('DOCUMENT_EXISTS', `${out.problems.length} of the documents to draft exist already; choose another agent name`, {
          problems,
        });
      case 'nothing':
        throw new ApiError('NOTHING_TO_IMPORT', 'no server listed a tool to draft; nothing is saved', { problems });
      case 'invalid_drafts':
      case 'refused':
        throw new ApiError('DRAFT_REFUSED', 'a drafted document was refused', {
          problems: out.drafts.map((d) => ({ document: d.id, ...diagnosticsJson([d.problem])[0] })),
          saved: out.saved,
        });
    }
    return c.json(
      {
        running: false as const,
        documents: out.saved.map((s) => ({ id: s.id, sequence: s.sequence, running: false as const })),
        servers: out.listings.map((l) => ({
          key: l.server.key,
          name: l.server.upstream.name,
          ...('error' in l ? { listed: false, code: l.error.code } : { listed: true, tools: l.tools.length }),
        })),
        tools: out.tools,
        variables: out.variables,
        problems,
      },
      201,
    );
  });

  return app;
}

function unreadable(problems: readonly Diagnostic[]): ApiError {
  return new ApiError('INVALID_CLIENT_CONFIG', `the configuration does not read: ${problems[0]?.code ?? 'NOT_JSON'}`, {
    problems: diagnosticsJson(problems),
  });
}
