// Routes: rules sent in the body, for the console and CI. Compile a rule sheet or Colang, and check one call
// against rules and a catalogue; each answers from its body alone and keeps nothing.
import { createRoute, z } from '@hono/zod-openapi';
import { type ApiCode, type Catalogue, checkTool, layOverlay, type SessionCall } from '@tollgate/engine';
import { compileBody, compileRulesInBody, type RulesRefusal } from '../compile-body.ts';
import { CompileBody } from '../compile-body-schema.ts';
import { compileOffLoop } from '../compile-thread.ts';
import { DiagnosticSchema } from '../diagnostic-schema.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { ArgumentsObject, EngineObject, ERRORS, errorResponse, jsonRequest, jsonResponse, members, withGrant } from './route-kit.ts';

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

/** Throws a refusal of rules in a body as the API's error. */
function refuse(refusal: RulesRefusal): never {
  const { code, message, details } = refusal.body.error as { code: ApiCode; message: string; details?: unknown };
  throw new ApiError(code, message, details);
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
        lints: z.array(DiagnosticSchema),
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

/** Compiling a rule sheet or Colang, and checking a call against rules, for members. */
export function ruleRoutes() {
  const app = router();

  app.openapi(compileRoute, async (c) => {
    const answer = await compileOffLoop(c.req.valid('json'), compileBody);
    if (answer.status !== 200) refuse(answer);
    return c.json(answer.body, 200);
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

  return app;
}
