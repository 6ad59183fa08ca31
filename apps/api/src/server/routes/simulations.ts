// Routes: simulations and trials. A simulation decides example or recorded calls with a policy version
// (and a candidate), never guessing a call whose arguments are gone; a trial runs a stored candidate
// beside the running version on a sample of live calls (PolicyTrials).
import { createRoute, z } from '@hono/zod-openapi';
import {
  type CompiledPolicy,
  type CompiledTool,
  catalogueFormatOf,
  compilePolicy,
  compileTool,
  dependsOnArguments,
  type ExampleSuite,
  evaluatePolicy,
  MAX_EXAMPLE_ARGUMENT_BYTES,
  readAgent,
  readCatalogue,
  readJsonText,
  type ToolBinding,
  utf8Length,
  validateExampleSuite,
  validatePolicy,
  validateToolBinding,
} from '@tollgate/engine';
import { JsonNumber, writeJson } from '@tollgate/engine/source';
import type { TrialReport } from '@tollgate/store';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { cachedJudgedMembers } from '../state/auth-cache.ts';
import { recordedDecisions } from '../state/decisions.ts';
import { exactJson, readStoredJson } from '../state/stored-json.ts';
import { ArgumentsObject, LOCATION, members, notFound, storeErrorFor } from './route-kit.ts';
import { ERRORS, jsonBody, jsonResponse } from './stateless.ts';

/** The validation codes of approvers.users checked against the workspace's members. */
const APPROVER_CODES = new Set(['UNKNOWN_APPROVER', 'APPROVER_ROLE_NOT_CAPABLE']);

/** At most this many recorded calls are simulated at once; narrow the window for more. */
export const MAX_RECORDED_CALLS = 1000;

const errorResponse = (description: string) => ({ ...ERRORS[400], description });

const VersionRef = z.strictObject({ id: z.string().min(1), sequence: z.number().int().positive().optional() });
// An object with an id is a reference, so a bad reference is refused rather than read as a policy.
const PolicyObject = z.record(z.string(), z.unknown()).refine((v) => !('id' in v), 'a stored version is {"id", "sequence"?}');
const Version = z
  .union([VersionRef, PolicyObject])
  .openapi({ description: 'A stored version {id, sequence?} (the running one without sequence), or a policy document.' });
const Timestamp = z.iso.datetime({ offset: true });
/**
 * A trial's sampling rate: a fraction, which the exact reader keeps as written (`0.5`); a rate decides no
 * call, so its double is what it means.
 */
const SampleRate = z.preprocess((v) => (v instanceof JsonNumber ? Number(v.lexeme) : v), z.number().gt(0).lte(1));
const AmountMappingSchema = z.strictObject({
  pointer: z.string(),
  currency: z.string(),
  currency_pointer: z.string().optional(),
});
const ToolBindingSchema = z
  .strictObject({ name: z.string().min(1), action: z.string().min(1), amount: AmountMappingSchema.optional() })
  .openapi('ToolBinding', { description: 'An exposed tool: {name, action, amount?: {pointer, currency, currency_pointer?}}.' });
const Expectation = z.strictObject({
  decision: z.enum(['allow', 'deny', 'require_approval', 'confirm']),
  rule: z.string().nullable().optional(),
  code: z.string().nullable().optional(),
});
const PastedCall = z
  .strictObject({
    tool: ToolBindingSchema,
    arguments: ArgumentsObject.nullable().openapi({
      description: 'The call’s arguments; null when they are not known (ARGUMENTS_REQUIRED if the decision needs them).',
    }),
    expect: Expectation.optional(),
  })
  .openapi('PastedCall');
const Calls = z.union([
  z.array(PastedCall).max(MAX_RECORDED_CALLS).openapi({ description: 'Pasted calls [{tool, arguments, expect?}].' }),
  z.strictObject({ examples: z.unknown().openapi({ description: 'An example suite {tools, examples}.' }) }),
  z.strictObject({
    recorded: z.strictObject({ agent: z.string().min(1).optional(), since: Timestamp.optional(), until: Timestamp.optional() }),
  }),
]);
const SimulationBody = z.strictObject({ document: Version, candidate: Version.optional(), calls: Calls }).openapi('SimulationBody');

/** A count of calls. */
const Count = z.number().int().min(0);
const Decision = z.object({ decision: z.string(), rule: z.string().nullable(), code: z.string().nullable() });
const Outcome = z.union([Decision, z.object({ not_evaluable: z.literal(true), code: z.string() })]);
const SimulationResult = z.object({
  compared: z.enum(['candidate', 'expected', 'recorded']),
  counts: z.object({ calls: Count, agreed: Count, differed: Count, not_evaluable: Count }),
  calls: z.array(
    z.object({
      name: z.string(),
      tool: z.string(),
      status: z.enum(['agreed', 'differed', 'not_evaluable', 'decided']),
      code: z.string().optional(),
      document: Outcome,
      candidate: Outcome.optional(),
      expected: Expectation.optional().openapi({ description: "The pasted call's or example's expectation." }),
      recorded: Decision.optional().openapi({ description: 'What the gate decided when the call was recorded.' }),
    }),
  ),
});

const TrialSchema = z
  .object({
    document: z.string(),
    candidate: z.number().int().min(1),
    sample_rate: z.number().gt(0).lte(1),
    started_at: z.iso.datetime({ offset: true }),
    calls: Count,
    sampled: Count,
    agreed: Count,
    differed: Count,
    differing: z.array(z.string()),
    running: z.boolean(),
  })
  .openapi('Trial');
const TrialBody = z
  .strictObject({ document: z.string().min(1), sequence: z.number().int().positive(), sample_rate: SampleRate })
  .openapi('TrialBody');
const DocumentParam = z.object({ document: z.string().min(1).openapi({ description: 'The policy id, URL-encoded.' }) });

const simulateRoute = createRoute({
  method: 'post',
  path: '/simulations',
  middleware: [members()] as const,
  operationId: 'runSimulation',
  tags: ['simulations'],
  summary: 'Decide example, pasted or recorded calls with a version, and a candidate beside it; keeps nothing.',
  request: jsonBody(SimulationBody),
  responses: {
    200: jsonResponse(SimulationResult, 'Each call’s decision by each version, and agreed/differed counts.'),
    ...ERRORS,
    404: errorResponse('NOT_FOUND: no such document or version.'),
    422: errorResponse(
      "INVALID_POLICY (the document is not a valid policy, or its approvers.users are not the workspace's members able to approve: UNKNOWN_APPROVER, APPROVER_ROLE_NOT_CAPABLE in details.errors), INVALID_EXAMPLES, INVALID_TOOL or TOO_MANY_CALLS.",
    ),
  },
});

const startTrialRoute = createRoute({
  method: 'post',
  path: '/trials',
  middleware: [members('owner', 'admin')] as const,
  operationId: 'startTrial',
  tags: ['simulations'],
  summary: 'Start a trial of a stored candidate version on a sample of live calls (owner or admin).',
  request: jsonBody(TrialBody),
  responses: {
    201: { ...jsonResponse(TrialSchema, 'The trial, running.'), headers: LOCATION },
    ...ERRORS,
    404: errorResponse('NOT_FOUND: no such document or version (details.resource).'),
    400: errorResponse('INVALID_SAVE: the version runs already or the sample rate is out of range; INVALID_BODY.'),
    409: errorResponse('REJECTED_VERSION: the version did not load, so it cannot run as a candidate.'),
    503: errorResponse('LOCKED: the store is busy; nothing was written; retry after Retry-After seconds.'),
  },
});

const trialRoute = createRoute({
  method: 'get',
  path: '/trials/{document}',
  middleware: [members()] as const,
  operationId: 'getTrial',
  tags: ['simulations'],
  summary: 'The trial of a policy: counts of sampled, agreed and differing calls.',
  request: { params: DocumentParam },
  responses: {
    200: jsonResponse(TrialSchema, 'The trial.'),
    401: ERRORS[401],
    403: ERRORS[403],
    404: errorResponse('NOT_FOUND (details.resource "trial"): the policy has no trial.'),
  },
});

const stopTrialRoute = createRoute({
  method: 'post',
  path: '/trials/{document}/stop',
  middleware: [members('owner', 'admin')] as const,
  operationId: 'stopTrial',
  tags: ['simulations'],
  summary: 'Stop a trial (owner or admin); nothing is promoted.',
  request: { params: DocumentParam },
  responses: {
    200: jsonResponse(TrialSchema, 'The trial, stopped.'),
    401: ERRORS[401],
    403: ERRORS[403],
    404: errorResponse('NOT_FOUND (details.resource "trial"): the policy has no trial.'),
    503: errorResponse('LOCKED: the store is busy; nothing was written; retry after Retry-After seconds.'),
  },
});

type Decided =
  | { decision: string; rule: string | null; code: string | null }
  | { not_evaluable: true; code: 'ARGUMENTS_REQUIRED' | 'TOO_LARGE' };

/** One call to simulate, with what it is compared against when there is no candidate. */
interface SimCall {
  name: string;
  tool: CompiledTool | undefined;
  toolName: string;
  arguments: Record<string, unknown> | null;
  expected?: z.infer<typeof Expectation>;
  recorded?: { decision: string; rule: string | null; code: string | null };
}

function snake(r: TrialReport) {
  return {
    document: r.document,
    candidate: r.candidate,
    sample_rate: r.sampleRate,
    started_at: r.startedAt,
    calls: r.calls,
    sampled: r.sampled,
    agreed: r.agreed,
    differed: r.differed,
    differing: r.differing,
    running: r.running,
  };
}

/** A version to simulate: a stored one (running, or by sequence) or a policy document in the body. */
async function policyOf(ctx: AppContext, version: z.infer<typeof Version>, at: string): Promise<CompiledPolicy> {
  let document: unknown = version;
  if (VersionRef.safeParse(version).success) {
    const ref = version as z.infer<typeof VersionRef>;
    const stored = await (ref.sequence === undefined ? ctx.store.get(ref.id) : ctx.store.getVersion(ref.id, ref.sequence)).catch(
      storeErrorFor('document'),
    );
    if (!stored)
      throw notFound('version', `${ref.id} has no ${ref.sequence === undefined ? 'running version' : `version ${ref.sequence}`}`);
    const read = readJsonText(stored.text);
    if (!read.ok) throw new ApiError(422, 'INVALID_POLICY', `${at}: ${ref.id} version ${stored.sequence} is not a policy document`);
    document = read.value;
  }
  const compiled = compilePolicy(document);
  if (!compiled.ok) {
    throw new ApiError(422, 'INVALID_POLICY', `${at}: not a valid policy document`, {
      errors: compiled.errors.map((e) => ({ code: e.code, path: `${at}${e.path ?? ''}`, message: e.message })),
    });
  }
  // A version that could not run here is not simulated as if it could: its approvers.users must be the
  // workspace's members able to approve (docs/policy.md, "Approvers").
  const approvers = validatePolicy(document, { members: cachedJudgedMembers(ctx.db) }).errors.filter((e) => APPROVER_CODES.has(e.code));
  if (approvers.length > 0) {
    throw new ApiError(422, 'INVALID_POLICY', `${at}: ${approvers[0]?.message}`, {
      errors: approvers.map((e) => ({ code: e.code, path: `${at}${e.path ?? ''}`, message: e.message })),
    });
  }
  return compiled.policy;
}

function decide(policy: CompiledPolicy, call: SimCall, now: Date): Decided {
  if (!call.tool) return { decision: 'deny', rule: null, code: 'TOOL_UNKNOWN' };
  // Simulations decide on arguments of at most 8 KiB, as example suites do (docs/policy.md, "Simulation").
  if (call.arguments !== null && utf8Length(writeJson(call.arguments)) > MAX_EXAMPLE_ARGUMENT_BYTES) {
    return { not_evaluable: true, code: 'TOO_LARGE' };
  }
  if (call.arguments === null && dependsOnArguments(policy, call.tool)) return { not_evaluable: true, code: 'ARGUMENTS_REQUIRED' };
  const d = evaluatePolicy(policy, call.tool, call.arguments ?? {}, { now });
  return { decision: d.decision, rule: d.rule, code: d.code };
}

function same(a: Decided, b: { decision: string; rule?: string | null; code?: string | null }): boolean {
  if ('not_evaluable' in a) return false;
  return a.decision === b.decision && (b.rule === undefined || a.rule === b.rule) && (b.code === undefined || a.code === b.code);
}

function exampleCalls(suite: unknown): SimCall[] {
  const problems = validateExampleSuite(suite);
  if (problems.length > 0) {
    throw new ApiError(422, 'INVALID_EXAMPLES', `/calls/examples${problems[0]?.path ?? ''}: ${problems[0]?.message}`, {
      problems: problems.map((p) => ({ code: p.code, path: `/calls/examples${p.path ?? ''}`, message: p.message })),
    });
  }
  const s = suite as ExampleSuite;
  const tools = new Map(s.tools.map((t) => [t.name, compileTool(t)]));
  return s.examples.map((ex) => ({
    name: ex.name,
    tool: tools.get(ex.tool),
    toolName: ex.tool,
    arguments: ex.arguments,
    expected: ex.expect,
  }));
}

/** Pasted calls: each tool binding checked as the engine reads it, then decided like an example. */
function pastedCalls(calls: z.infer<typeof PastedCall>[]): SimCall[] {
  const problems = calls.flatMap((call, i) => validateToolBinding(call.tool, `/calls/${i}/tool`));
  if (problems.length > 0) {
    throw new ApiError(422, 'INVALID_TOOL', `${problems[0]?.path ?? '/calls'}: ${problems[0]?.message}`, {
      problems: problems.map((p) => ({ code: p.code, path: p.path ?? '', message: p.message })),
    });
  }
  return calls.map((call, i) => ({
    name: `/calls/${i}`,
    tool: compileTool(call.tool as ToolBinding),
    toolName: call.tool.name,
    arguments: call.arguments,
    ...(call.expect !== undefined ? { expected: call.expect } : {}),
  }));
}

/** The agent's catalogue as tool bindings, or none when the agent or its catalogue does not load. */
async function bindingsOf(ctx: AppContext, agent: string): Promise<Map<string, ToolBinding>> {
  const bindings = new Map<string, ToolBinding>();
  const file = await ctx.store.get(`agents/${agent}.agent.yaml`).catch(() => undefined);
  const read = file ? readAgent(file.text) : undefined;
  if (!read?.ok) return bindings;
  const catalogueFile = await ctx.store.get(read.agent.catalogue).catch(() => undefined);
  const catalogue = catalogueFile ? readCatalogue(catalogueFile.text, catalogueFormatOf(read.agent.catalogue) ?? 'yaml') : undefined;
  if (!catalogue?.ok) return bindings;
  for (const t of catalogue.catalogue.tools) {
    bindings.set(t.name, t.amount ? { name: t.name, action: t.action, amount: t.amount } : { name: t.name, action: t.action });
  }
  return bindings;
}

async function recordedCalls(ctx: AppContext, filter: { agent?: string; since?: string; until?: string }): Promise<SimCall[]> {
  const rows = recordedDecisions(ctx.db, {
    ...(filter.agent !== undefined ? { agent: filter.agent } : {}),
    ...(filter.since !== undefined ? { since: new Date(filter.since).toISOString() } : {}),
    ...(filter.until !== undefined ? { until: new Date(filter.until).toISOString() } : {}),
    limit: MAX_RECORDED_CALLS + 1,
  });
  if (rows.length > MAX_RECORDED_CALLS) {
    throw new ApiError(422, 'TOO_MANY_CALLS', `more than ${MAX_RECORDED_CALLS} recorded calls match; narrow the agent, since or until`);
  }
  const catalogues = new Map<string, Map<string, ToolBinding>>();
  const calls: SimCall[] = [];
  for (const row of rows) {
    let bindings = catalogues.get(row.agent);
    if (!bindings) {
      bindings = await bindingsOf(ctx, row.agent);
      catalogues.set(row.agent, bindings);
    }
    // A tool no longer in the catalogue is bound by its recorded action, without an amount.
    const binding = bindings.get(row.tool) ?? (row.action ? { name: row.tool, action: row.action } : undefined);
    const args = readStoredJson(row.arguments) as Record<string, unknown> | null;
    calls.push({
      name: row.call_id,
      tool: binding ? compileTool(binding) : undefined,
      toolName: row.tool,
      arguments: args,
      recorded: { decision: row.decision, rule: row.rule, code: row.code },
    });
  }
  return calls;
}

/** The simulation and trial routes; simulating is for members, starting and stopping trials for owners and admins. */
export function simulationRoutes() {
  const app = router();

  app.openapi(simulateRoute, async (c) => {
    const ctx = c.get('ctx');
    const body = c.req.valid('json');
    const document = await policyOf(ctx, body.document, '/document');
    const candidate = body.candidate === undefined ? undefined : await policyOf(ctx, body.candidate, '/candidate');
    const calls = Array.isArray(body.calls)
      ? pastedCalls(body.calls)
      : 'examples' in body.calls
        ? exampleCalls(body.calls.examples)
        : await recordedCalls(ctx, body.calls.recorded);
    const now = ctx.now();
    const compared = candidate ? 'candidate' : Array.isArray(body.calls) || 'examples' in body.calls ? 'expected' : 'recorded';
    const counts = { calls: calls.length, agreed: 0, differed: 0, not_evaluable: 0 };
    const results = calls.map((call) => {
      const mine = decide(document, call, now);
      const theirs = candidate ? decide(candidate, call, now) : undefined;
      // Without a candidate: what the example expects, or the recorded decision (its rule may be the rulebook's, so only the decision counts).
      const reference =
        theirs ?? (call.expected as { decision: string } | undefined) ?? (call.recorded ? { decision: call.recorded.decision } : undefined);
      // A pasted call without expect (and no candidate) is only decided: there is nothing to compare.
      let status: 'agreed' | 'differed' | 'not_evaluable' | 'decided';
      const unevaluable = 'not_evaluable' in mine ? mine : theirs && 'not_evaluable' in theirs ? theirs : undefined;
      if (unevaluable) status = 'not_evaluable';
      else if (!reference) status = 'decided';
      else if (!('not_evaluable' in reference) && same(mine, reference)) status = 'agreed';
      else status = 'differed';
      if (status !== 'decided') counts[status]++;
      return {
        name: call.name,
        tool: call.toolName,
        status,
        ...(unevaluable ? { code: unevaluable.code } : {}),
        document: mine,
        ...(theirs ? { candidate: theirs } : {}),
        ...(call.expected !== undefined ? { expected: call.expected } : {}),
        ...(call.recorded !== undefined ? { recorded: call.recorded } : {}),
      };
    });
    return exactJson(c, { compared, counts, calls: results } as const, 200);
  });

  app.openapi(startTrialRoute, async (c) => {
    const body = c.req.valid('json');
    const report = await c
      .get('ctx')
      .trials.start({ document: body.document, sequence: body.sequence, sampleRate: body.sample_rate })
      .catch(storeErrorFor('document'));
    return c.json(snake(report), 201, { Location: `/v1/trials/${encodeURIComponent(report.document)}` });
  });

  app.openapi(trialRoute, async (c) => {
    const { document } = c.req.valid('param');
    const report = await c.get('ctx').trials.report(document).catch(storeErrorFor('document'));
    if (!report) throw notFound('trial', `${document} has no trial`);
    return c.json(snake(report), 200);
  });

  app.openapi(stopTrialRoute, async (c) => {
    const { document } = c.req.valid('param');
    const report = await c.get('ctx').trials.stop(document).catch(storeErrorFor('document'));
    if (!report) throw notFound('trial', `${document} has no trial`);
    return c.json(snake(report), 200);
  });

  return app;
}
