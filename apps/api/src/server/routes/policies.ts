// Routes: a policy document sent in the body, for the console and CI. Validate it (optionally against members
// and tools) and decide one call against it, as `tollgate policy validate` and `policy evaluate` do; each
// answers from its body and the workspace's members and tools, and keeps nothing.
import { createRoute, z } from '@hono/zod-openapi';
import {
  type ApiCode,
  CompiledPolicy,
  compileTool,
  evaluatePolicy,
  type Member,
  type PolicyDocument,
  type ToolBinding,
  validateMembers,
  validatePolicy,
  validateToolBinding,
} from '@tollgate/engine';
import { type Diagnostic, diagnosticJson } from '@tollgate/engine/source';
import { DiagnosticSchema } from '../diagnostic-schema.ts';
import { ApiError } from '../errors.ts';
import { bodyFindings } from '../exact-body.ts';
import { router } from '../openapi.ts';
import { runningBindings } from '../state/tools/adopt-bindings.ts';
import { ArgumentsObject, EngineObject, ERRORS, errorResponse, jsonRequest, jsonResponse, members } from './route-kit.ts';

const JsonObject = z.record(z.string(), z.unknown());
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

/** The tools of a body, checked as a tools file is (422 INVALID_TOOLS, each problem at /tools/N); none given, undefined. */
export function toolsOf(tools: unknown[] | undefined): ToolBinding[] | undefined {
  if (tools === undefined) return undefined;
  refuseIf(
    tools.flatMap((t, i) => validateToolBinding(t, `/tools/${i}`)),
    'INVALID_TOOLS',
    'the tools are not valid',
  );
  return tools as ToolBinding[];
}

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
      z.object({ valid: z.boolean(), revision: z.number().int(), errors: z.array(DiagnosticSchema), warnings: z.array(DiagnosticSchema) }),
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

/** Validating a policy document and deciding a call against it, for members. */
export function policyRoutes() {
  const app = router();

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

  return app;
}
