// Simulating calls: the versions to decide with (stored or sent), the calls (pasted, an example suite or
// recorded decisions, never guessing arguments that are gone) and their comparison. The route
// (routes/simulations.ts) only reads the body and answers.

import { z } from '@hono/zod-openapi';
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
import { diagnosticJson, writeJson } from '@tollgate/engine/source';
import { approverMembers } from '../approvals/member-keys-setting.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { refuseNotAPolicy } from '../routes/policy-only.ts';
import { ArgumentsObject, notFound, storeErrorFor } from '../routes/route-kit.ts';
import { readStoredJson } from '../state/stored-json.ts';

/** The validation codes of approvers.users checked against the workspace's members. */
const APPROVER_CODES = new Set(['UNKNOWN_APPROVER', 'APPROVER_ROLE_NOT_CAPABLE']);

/** At most this many recorded calls are simulated at once; narrow the window for more. */
export const MAX_RECORDED_CALLS = 1000;

export const VersionRef = z.strictObject({ id: z.string().min(1), sequence: z.number().int().positive().optional() });
// An object with an id is a reference, so a bad reference is refused rather than read as a policy.
export const PolicyObject = z.record(z.string(), z.unknown()).refine((v) => !('id' in v), 'a stored version is {"id", "sequence"?}');
export const Version = z
  .union([VersionRef, PolicyObject])
  .openapi({ description: 'A stored version {id, sequence?} (the running one without sequence), or a policy document.' });
export const Timestamp = z.iso.datetime({ offset: true });
export const AmountMappingSchema = z.strictObject({
  pointer: z.string(),
  currency: z.string(),
  currency_pointer: z.string().optional(),
});
export const ToolBindingSchema = z
  .strictObject({ name: z.string().min(1), action: z.string().min(1), amount: AmountMappingSchema.optional() })
  .openapi('ToolBinding', { description: 'An exposed tool: {name, action, amount?: {pointer, currency, currency_pointer?}}.' });
export const Expectation = z.strictObject({
  decision: z.enum(['allow', 'deny', 'require_approval', 'confirm']),
  rule: z.string().nullable().optional(),
  code: z.string().nullable().optional(),
});
export const PastedCall = z
  .strictObject({
    tool: ToolBindingSchema,
    arguments: ArgumentsObject.nullable().openapi({
      description: 'The call’s arguments; null when they are not known (ARGUMENTS_REQUIRED if the decision needs them).',
    }),
    expect: Expectation.optional(),
  })
  .openapi('PastedCall');
export const Calls = z.union([
  z.array(PastedCall).max(MAX_RECORDED_CALLS).openapi({ description: 'Pasted calls [{tool, arguments, expect?}].' }),
  z.strictObject({ examples: z.unknown().openapi({ description: 'An example suite {tools, examples}.' }) }),
  z.strictObject({
    recorded: z.strictObject({ agent: z.string().min(1).optional(), since: Timestamp.optional(), until: Timestamp.optional() }),
  }),
]);
export const SimulationBody = z.strictObject({ document: Version, candidate: Version.optional(), calls: Calls }).openapi('SimulationBody');

export type Decided =
  | { decision: string; rule: string | null; code: string | null }
  | { not_evaluable: true; code: 'ARGUMENTS_REQUIRED' | 'TOO_LARGE' };

/** One call to simulate, with what it is compared against when there is no candidate. */
export interface SimCall {
  name: string;
  tool: CompiledTool | undefined;
  toolName: string;
  arguments: Record<string, unknown> | null;
  expected?: z.infer<typeof Expectation>;
  recorded?: { decision: string; rule: string | null; code: string | null };
}

/** A version to simulate: a stored one (running, or by sequence) or a policy document in the body. */
export async function policyOf(ctx: AppContext, version: z.infer<typeof Version>, at: string): Promise<CompiledPolicy> {
  let document: unknown = version;
  if (VersionRef.safeParse(version).success) {
    const ref = version as z.infer<typeof VersionRef>;
    refuseNotAPolicy(ref.id, 'only a policy is simulated');
    const stored = await (ref.sequence === undefined ? ctx.store.get(ref.id) : ctx.store.getVersion(ref.id, ref.sequence)).catch(
      storeErrorFor('document'),
    );
    if (!stored)
      throw notFound('version', `${ref.id} has no ${ref.sequence === undefined ? 'running version' : `version ${ref.sequence}`}`);
    const read = readJsonText(stored.text);
    if (!read.ok) throw new ApiError('INVALID_POLICY', `${at}: ${ref.id} version ${stored.sequence} is not a policy document`);
    document = read.value;
  }
  const compiled = compilePolicy(document);
  if (!compiled.ok) {
    throw new ApiError('INVALID_POLICY', `${at}: not a valid policy document`, {
      errors: compiled.errors.map((e) => ({ code: e.code, path: `${at}${e.path ?? ''}`, message: e.message })),
    });
  }
  // A version that could not run here is not simulated as if it could: its approvers.users must be the
  // workspace's members able to approve (docs/policy.md, "Approvers").
  const approvers = validatePolicy(document, { members: await approverMembers(ctx) }).errors.filter((e) => APPROVER_CODES.has(e.code));
  if (approvers.length > 0) {
    throw new ApiError('INVALID_POLICY', `${at}: ${approvers[0]?.message}`, {
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

export function exampleCalls(suite: unknown): SimCall[] {
  const problems = validateExampleSuite(suite);
  if (problems.length > 0) {
    throw new ApiError('INVALID_EXAMPLES', `/calls/examples${problems[0]?.path ?? ''}: ${problems[0]?.message}`, {
      problems: problems.map((p) => diagnosticJson({ ...p, path: `/calls/examples${p.path ?? ''}` })),
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
export function pastedCalls(calls: z.infer<typeof PastedCall>[]): SimCall[] {
  const problems = calls.flatMap((call, i) => validateToolBinding(call.tool, `/calls/${i}/tool`));
  if (problems.length > 0) {
    throw new ApiError('INVALID_TOOL', `${problems[0]?.path ?? '/calls'}: ${problems[0]?.message}`, {
      problems: problems.map(diagnosticJson),
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

export async function recordedCalls(ctx: AppContext, filter: { agent?: string; since?: string; until?: string }): Promise<SimCall[]> {
  const rows = await ctx.state.recordedDecisions({
    ...(filter.agent !== undefined ? { agent: filter.agent } : {}),
    ...(filter.since !== undefined ? { since: new Date(filter.since).toISOString() } : {}),
    ...(filter.until !== undefined ? { until: new Date(filter.until).toISOString() } : {}),
    limit: MAX_RECORDED_CALLS + 1,
  });
  if (rows.length > MAX_RECORDED_CALLS) {
    throw new ApiError('TOO_MANY_CALLS', `more than ${MAX_RECORDED_CALLS} recorded calls match; narrow the agent, since or until`);
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

/**
 * Decides every call with the document (and the candidate), each compared against the candidate, else what
 * it expects, else its recorded decision; counts agreed, differed and not evaluable. `given` is the body's
 * calls, which say what a call without a candidate is compared against.
 */
export function compareCalls(
  document: CompiledPolicy,
  candidate: CompiledPolicy | undefined,
  calls: SimCall[],
  given: z.infer<typeof SimulationBody>['calls'],
  now: Date,
) {
  const compared: 'candidate' | 'expected' | 'recorded' = candidate
    ? 'candidate'
    : Array.isArray(given) || 'examples' in given
      ? 'expected'
      : 'recorded';
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
  return { compared, counts, results };
}
