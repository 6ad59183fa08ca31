// Routes: stateless, for the console and CI. Compile a sheet, validate and evaluate a policy, check a call
// against rules, and draft a policy from a template; each answers from its body alone and keeps nothing.
import { createRoute, z } from '@hono/zod-openapi';
import {
  type ApiCode,
  type Catalogue,
  CompiledPolicy,
  checkTool,
  compileTool,
  createFromTemplate,
  evaluatePolicy,
  getTemplate,
  layOverlay,
  listTemplates,
  type Member,
  type PolicyDocument,
  type SessionCall,
  type ToolBinding,
  validateMembers,
  validatePolicy,
  validateToolBinding,
} from '@tollgate/engine';
import { type Diagnostic, diagnosticJson } from '@tollgate/engine/source';
import { compileBody, compileRulesInBody, type RulesRefusal } from '../compile-body.ts';
import { CompileBody } from '../compile-body-schema.ts';
import { compileOffLoop } from '../compile-thread.ts';
import { DiagnosticSchema } from '../diagnostic-schema.ts';
import { ApiError } from '../errors.ts';
import { bodyFindings } from '../exact-body.ts';
import { router } from '../openapi.ts';
import { runningBindings } from '../state/adopt-bindings.ts';
import { nameParam } from './path-params.ts';
import { ArgumentsObject, ERRORS, errorResponse, jsonRequest, jsonResponse, members, notFound, withGrant } from './route-kit.ts';

const JsonObject = z.record(z.string(), z.unknown());
const Problem = DiagnosticSchema;
/** A JSON object the engine defines (a rulebook, an overlay, an explanation): described, not restated. */
const EngineObject = (description: string) => z.record(z.string(), z.unknown()).openapi({ description });
/** A problem the rules do not stop for: a Diagnostic. */
const Lint = DiagnosticSchema;
const TemplateParameter = z
  .object({
    name: z.string(),
    type: z.enum(['currency', 'amount', 'integer', 'patterns']),
    description: z.string(),
    default: z.string(),
  })
  .openapi('TemplateParameter');
const Members = z.array(z.unknown()).openapi({
  description: "Members at decision time: [{id, role, signing}]. Left out, approvers.users are checked against the workspace's members.",
});
const Tools = z.array(z.unknown()).openapi({
  description: 'The agent’s tools: [{name, action, amount?}]. Left out, the tools of the workspace’s catalogues.',
});

const ValidateBody = z
  .strictObject({ document: JsonObject, members: Members.optional(), tools: Tools.optional() })
  .openapi('PolicyValidateBody');
const EvaluateBody = z
  .strictObject({ document: JsonObject, tool: JsonObject, arguments: ArgumentsObject, members: Members.optional() })
  .openapi('PolicyEvaluateBody');
const RulesBody = z.strictObject({ sheet: z.string().optional(), colang: z.string().optional() });
const CallBody = z.strictObject({
  tool: z.string().min(1),
  arguments: ArgumentsObject.optional(),
  contexts: z.record(z.string(), z.boolean()).optional(),
  history: z
    .array(z.strictObject({ tool: z.string().min(1), arguments: ArgumentsObject.optional(), result: z.unknown().optional() }))
    .optional(),
  confirmed: z.boolean().optional(),
});
const CheckBody = z
  .strictObject({
    rules: RulesBody,
    catalogue: z.string().optional(),
    catalogue_format: z.enum(['yaml', 'json']).optional(),
    call: CallBody,
  })
  .openapi('RulesCheckBody');
const TemplateBody = z.strictObject({ params: z.record(z.string(), z.string()).optional() }).openapi('PolicyTemplateBody');

/** Throws a refusal of rules in a body as the API's error. */
function refuse(refusal: RulesRefusal): never {
  const { code, message, details } = refusal.body.error as { code: ApiCode; message: string; details?: unknown };
  throw new ApiError(code, message, details);
}

/** 422 with the problems of a part of the body that the engine refuses. */
function refuseIf(problems: Diagnostic[], code: ApiCode, what: string): void {
  if (problems.length > 0) throw new ApiError(code, `${what}: ${problems[0]?.message}`, { problems: problems.map(diagnosticJson) });
}

function membersOf(members: unknown[] | undefined, at: string): Member[] | undefined {
  if (members === undefined) return undefined;
  refuseIf(
    validateMembers(members).map((p) => ({ ...p, path: `${at}${p.path ?? ''}` })),
    'INVALID_MEMBERS',
    'the members are not valid',
  );
  return members as Member[];
}

function toolsOf(tools: unknown[] | undefined): ToolBinding[] | undefined {
  if (tools === undefined) return undefined;
  refuseIf(
    tools.flatMap((t, i) => validateToolBinding(t, `/tools/${i}`)),
    'INVALID_TOOLS',
    'the tools are not valid',
  );
  return tools as ToolBinding[];
}

const compileRoute = createRoute({
  method: 'post',
  path: '/rule-sheets/compile',
  middleware: [members(), withGrant('catalogue')] as const,
  operationId: 'compileRules',
  tags: ['rules'],
  summary: 'Compile a rule sheet or Colang; keeps nothing (needs the catalogue grant).',
  request: jsonRequest(CompileBody),
  responses: {
    200: jsonResponse(
      z.object({
        colang: z.string().nullable(),
        rulebook: EngineObject('The compiled rulebook (docs/colang.md, "The IR").'),
        overlay: EngineObject('What the rules lay over the catalogue: tool kinds and confirmations.'),
        lints: z.array(Lint),
        source_map: EngineObject("Where each of the rulebook's rules comes from in the source."),
      }),
      'The Colang (null for Colang input), rulebook, overlay and lints.',
    ),
    ...ERRORS,
    422: errorResponse(
      'rule_sheet_unsupported or COLANG_UNSUPPORTED with details.problems [{line, message, code}] (each its own code, rule_sheet_limit or colang_limit among them); or INVALID_CATALOGUE.',
    ),
  },
});

const validateRoute = createRoute({
  method: 'post',
  path: '/policies/validate',
  middleware: [members()] as const,
  operationId: 'validatePolicy',
  tags: ['policies'],
  summary: 'Validate a policy document, optionally against members and tools.',
  request: jsonRequest(ValidateBody),
  responses: {
    200: jsonResponse(
      z.object({ valid: z.boolean(), revision: z.number().int(), errors: z.array(Problem), warnings: z.array(Problem) }),
      'Whether the document is valid, its language revision, errors and warnings.',
    ),
    ...ERRORS,
    422: errorResponse('INVALID_MEMBERS or INVALID_TOOLS.'),
  },
});

const evaluateRoute = createRoute({
  method: 'post',
  path: '/policies/evaluate',
  middleware: [members()] as const,
  operationId: 'evaluatePolicy',
  tags: ['policies'],
  summary: 'Decide one call against a policy document, as `tollgate policy evaluate --json` does.',
  request: jsonRequest(EvaluateBody),
  responses: {
    200: jsonResponse(
      z.object({
        decision: z.enum(['allow', 'require_approval', 'deny']),
        rule: z.string().nullable(),
        code: z.string().nullable(),
        approvers: z.array(z.string()).nullable(),
        approval: z.object({ ttl_seconds: z.number().int().min(0), expires_at: z.iso.datetime({ offset: true }) }).nullable(),
        explanation: EngineObject('Why: the deciding rule, the conditions it checked and the amounts (docs/policy.md).'),
      }),
      'The decision, the deciding rule, approvers and the explanation.',
    ),
    ...ERRORS,
    422: errorResponse('INVALID_POLICY (details.errors), INVALID_TOOL or INVALID_MEMBERS.'),
  },
});

const checkRoute = createRoute({
  method: 'post',
  path: '/rules/check',
  middleware: [members()] as const,
  operationId: 'checkRules',
  tags: ['rules'],
  summary: 'Check one call against a rule sheet or Colang and a catalogue.',
  request: jsonRequest(CheckBody),
  responses: {
    200: jsonResponse(
      z.object({
        verdict: z.enum(['allow', 'refuse', 'confirm']),
        rule: z.string().nullable(),
        reason: z.string().nullable(),
        code: z.string().optional(),
        confirmation: z.string().optional(),
      }),
      'The verdict, the rule and why.',
    ),
    ...ERRORS,
    422: errorResponse('The rules do not compile (rule_sheet_unsupported or COLANG_UNSUPPORTED) or INVALID_CATALOGUE.'),
  },
});

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

/** The stateless routes, for members. */
export function statelessRoutes() {
  const app = router();

  app.openapi(compileRoute, async (c) => {
    const answer = await compileOffLoop(c.req.valid('json'), compileBody);
    if (answer.status !== 200) refuse(answer);
    return c.json(answer.body, 200);
  });

  app.openapi(validateRoute, async (c) => {
    const body = c.req.valid('json');
    const ctx = c.get('ctx');
    // Without members or tools in the body, the workspace's own, as `tollgate policy validate --members
    // --tools` would be given them: a user who is not a member is UNKNOWN_APPROVER, and the warnings speak
    // of the catalogues' tools (tool names are unique across a workspace's catalogues).
    const members = membersOf(body.members, '/members') ?? (await ctx.state.judgedMembers());
    const workspaceTools = body.tools === undefined ? (await runningBindings(ctx.store)).map((b) => b.binding) : [];
    const tools = toolsOf(body.tools) ?? (workspaceTools.length > 0 ? workspaceTools : undefined);
    const r = validatePolicy(body.document, { members, tools });
    // The document as the CLI reads its file: the reader's findings (numbers not stated exactly) first.
    const errors = [...bodyFindings(c, '/document'), ...r.errors];
    return c.json(
      { valid: errors.length === 0, revision: r.revision, errors: errors.map(diagnosticJson), warnings: r.warnings.map(diagnosticJson) },
      200,
    );
  });

  app.openapi(evaluateRoute, async (c) => {
    const body = c.req.valid('json');
    const members = membersOf(body.members, '/members');
    const toolProblems = validateToolBinding(body.tool, '/tool');
    refuseIf(toolProblems, 'INVALID_TOOL', 'the tool is not valid');
    // The document's approvers are checked against the members given, else the workspace's; approvers are
    // resolved only from members given, as `tollgate policy evaluate --members` does.
    const checked = validatePolicy(body.document, { members: members ?? (await c.get('ctx').state.judgedMembers()) });
    const errors = [...bodyFindings(c, '/document'), ...checked.errors];
    if (errors.length > 0) {
      throw new ApiError('INVALID_POLICY', 'the document is not valid, so it decides nothing', {
        errors: errors.map(diagnosticJson),
      });
    }
    const policy = new CompiledPolicy(body.document as unknown as PolicyDocument);
    const d = evaluatePolicy(policy, compileTool(body.tool as unknown as ToolBinding), body.arguments, {
      ...(members ? { members } : {}),
      now: c.get('ctx').now(),
    });
    return c.json(
      { decision: d.decision, rule: d.rule, code: d.code, approvers: d.approvers, approval: d.approval, explanation: d.explanation },
      200,
    );
  });

  app.openapi(checkRoute, (c) => {
    const body = c.req.valid('json');
    const { rules, call } = body;
    const read = compileRulesInBody({ ...rules, catalogue: body.catalogue, catalogue_format: body.catalogue_format }, '/rules');
    if (!('ok' in read)) refuse(read);
    const { compiled, catalogue } = read;
    // Without a catalogue the called tool is an uncatalogued write, as `tollgate rules check` treats it.
    const base: Catalogue = catalogue ?? { tools: [{ name: call.tool, action: 'uncatalogued', kind: 'write' }] };
    const verdict = checkTool({
      rulebook: compiled.rulebook,
      catalogue: layOverlay(base, compiled.overlay),
      call: { tool: call.tool, arguments: call.arguments ?? {} },
      contexts: call.contexts ?? {},
      history: (call.history ?? []) as SessionCall[],
      confirmed: call.confirmed === true,
    });
    if (verdict.verdict === 'allow') return c.json({ verdict: 'allow' as const, rule: null, reason: null }, 200);
    if (verdict.verdict === 'refuse') {
      return c.json({ verdict: 'refuse' as const, rule: verdict.rule, reason: verdict.reason, code: verdict.code }, 200);
    }
    return c.json(
      { verdict: 'confirm' as const, rule: verdict.rule, reason: 'a person confirms each call', confirmation: verdict.confirmation },
      200,
    );
  });

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
