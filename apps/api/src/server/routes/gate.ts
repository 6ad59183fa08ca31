// Routes: the gate. An agent sends its call; the agent document and what it names (running versions from
// the store) decide it; the decision is recorded, and a held call gets an approval request.
import { randomUUID } from 'node:crypto';
import { createRoute, z } from '@hono/zod-openapi';
import {
  type Agent,
  type CatalogueOverlay,
  catalogueFormatOf,
  compilePolicy,
  compileRules,
  DEFAULT_APPROVAL_TTL_SECONDS,
  decidePrepared,
  documentKindOf,
  type GateParts,
  type GatePolicy,
  type GateRulebook,
  type GateRuleset,
  isApprovedVersion,
  type PreparedGate,
  prepareGate,
  type Rulebook,
  readAgent,
  readCatalogue,
  readSettings,
  type Settings,
} from '@tollgate/engine';
import { readJsonText, writeJson } from '@tollgate/engine/source';
import { MAX_BODY_BYTES } from '../body-limit.ts';
import { agentNameIssues, type CallRequestBody, callBodyIssues, readJsonBody } from '../call-request.ts';
import { offLoop } from '../compile-thread.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { onlyDeclaredQuery, router, validationError } from '../openapi.ts';
import { loadPinnedRules, readRulesetVersion } from '../rulesets/ruleset-versions.ts';
import { cachedJudgedMembers } from '../state/auth-cache.ts';
import { newCallId } from '../state/call-id.ts';
import { decisionLogOf } from '../state/decision-log.ts';
import { argumentsDigest, type DecisionRow, forgetOldArguments, sessionHistory } from '../state/decisions.ts';
import { authorizationGeneration, unauthorizedTools } from '../state/tool-bindings.ts';
import { ErrorSchema, notFound } from './route-kit.ts';

export const CallBody = z
  .strictObject({
    tool: z.string().min(1).max(128).openapi({ description: "The catalogue tool's name." }),
    arguments: z.record(z.string(), z.unknown()).openapi({ description: "The call's arguments (a JSON object)." }),
    session: z.string().min(1).max(256).optional().openapi({ description: 'A session id: earlier allowed calls with it are the history.' }),
    contexts: z.record(z.string(), z.unknown()).optional().openapi({ description: 'Contexts the host sets for this call.' }),
    confirmed: z.boolean().optional().openapi({ description: 'Whether a person confirmed this call.' }),
  })
  .openapi('CallBody');

const CallAnswer = z
  .object({
    call_id: z.string(),
    decision: z.enum(['allow', 'deny', 'require_approval', 'confirm']),
    rule: z.string().nullable(),
    code: z.string().nullable(),
    explanation: z.record(z.string(), z.unknown()).openapi({ description: 'What the agent is told, at its disclosure level.' }),
    approval: z.object({ id: z.string(), expires_at: z.string(), approvers_count: z.number() }).optional(),
    observed: z
      .object({ window: z.string(), would_have_been: z.enum(['allow', 'deny', 'require_approval', 'confirm']) })
      .optional()
      .openapi({ description: 'Set when an observe window relaxed the decision: the window and what the decision would have been.' }),
  })
  .openapi('CallAnswer');

/** The route as /v1/openapi.json describes it; call-request.ts checks requests against it by hand. */
export const callRoute = createRoute({
  method: 'post',
  path: '/agents/{agent}/calls',
  operationId: 'decideCall',
  tags: ['gate'],
  summary: "Decide an agent's call",
  request: {
    params: z.object({ agent: z.string().min(1).max(128) }),
    body: { required: true, content: { 'application/json': { schema: CallBody } } },
  },
  responses: {
    200: { description: 'The decision, recorded', content: { 'application/json': { schema: CallAnswer } } },
    400: { description: 'A bad body', content: { 'application/json': { schema: ErrorSchema } } },
    403: { description: "Not this agent's key", content: { 'application/json': { schema: ErrorSchema } } },
    404: { description: 'No such agent', content: { 'application/json': { schema: ErrorSchema } } },
  },
});

interface LoadedAgent {
  agent: Agent;
  /** Documents read at a pinned sequence rather than their running one. */
  pinned: string[];
  parts: GateParts;
  /** The parts prepared once for every call (prepareGate): tools by name, overlays laid, dates parsed. */
  prepared: PreparedGate;
  versions: Record<string, number>;
}

async function running(ctx: AppContext, id: string, versions: Record<string, number>): Promise<string> {
  const doc = await ctx.store.get(id);
  if (!doc) throw new ApiError(409, 'AGENT_NOT_LOADABLE', `${id} has no running version`);
  versions[id] = doc.sequence;
  return doc.text;
}

function unloadable(id: string, problems: unknown): never {
  throw new ApiError(409, 'AGENT_NOT_LOADABLE', `${id} does not load`, { problems });
}

/** A pinned rule that does not load makes the agent unloadable, naming the rule. */
function rulesUnloadable(err: unknown): never {
  if (err instanceof ApiError) throw new ApiError(409, 'AGENT_NOT_LOADABLE', err.message, err.details);
  throw err;
}

const loadedAgents = new WeakMap<
  AppContext,
  Map<string, { loaded: LoadedAgent; generation: number; authorizations: number; versionsJson: string }>
>();

/**
 * The agent as loaded for its documents' current versions, with its versions as recorded JSON. A loaded
 * agent is trusted until the store is written (`ctx.documentChanges`) or a tool is authorized: a call then
 * reads no document at all. The generations are taken before loading, so a write during a load leaves a
 * stale entry unused.
 */
export async function loadAgentCached(ctx: AppContext, name: string): Promise<{ loaded: LoadedAgent; versionsJson: string }> {
  let cache = loadedAgents.get(ctx);
  if (!cache) {
    cache = new Map();
    loadedAgents.set(ctx, cache);
  }
  const generation = ctx.documentChanges.generation;
  const authorizations = authorizationGeneration(ctx.db);
  const hit = cache.get(name);
  if (hit && hit.generation === generation && hit.authorizations === authorizations) return hit;
  const loaded = await loadAgent(ctx, name);
  const entry = { loaded, generation, authorizations, versionsJson: JSON.stringify(loaded.versions) };
  cache.set(name, entry);
  return entry;
}

/** Loads the agent and every document it names, at their running versions (pinned ones at their pin). */
export async function loadAgent(ctx: AppContext, name: string): Promise<LoadedAgent> {
  const id = `agents/${name}.agent.yaml`;
  if (documentKindOf(id) !== 'agent') throw notFound('agent', `no agent named ${name}`);
  const doc = await ctx.store.get(id);
  if (!doc) throw notFound('agent', `no agent named ${name}`);
  const versions: Record<string, number> = { [id]: doc.sequence };
  const read = readAgent(doc.text);
  if (!read.ok) unloadable(id, read.problems);
  const agent = read.agent;

  const catalogueRead = readCatalogue(await running(ctx, agent.catalogue, versions), catalogueFormatOf(agent.catalogue) ?? 'yaml');
  if (!catalogueRead.ok) unloadable(agent.catalogue, catalogueRead.problems);

  let rulebook: Rulebook | undefined;
  let overlay: CatalogueOverlay | undefined;
  if (agent.rulebook !== undefined) {
    const kind = documentKindOf(agent.rulebook) === 'colang' ? 'colang' : 'sheet';
    const text = await running(ctx, agent.rulebook, versions);
    const id = agent.rulebook;
    // A big sheet compiles on the compile thread, so loading the agent never holds the other calls.
    const compiled = await offLoop(text.length, { rules: { text, kind, id } }, () => compileRules(text, kind, undefined, id));
    if (!compiled.ok) unloadable(agent.rulebook, compiled.problems);
    rulebook = compiled.rulebook;
    overlay = compiled.overlay;
  }

  // Settings first: whether only approved rule sets run decides whether the rule set's pins are read at all.
  let ttl = DEFAULT_APPROVAL_TTL_SECONDS;
  let settingsRead: Settings | undefined;
  const settingsDoc = await ctx.store.get('settings.yaml');
  if (settingsDoc) {
    const s = readSettings(settingsDoc.text, undefined, { stored: true });
    if (s.ok) {
      settingsRead = s.settings;
      ttl = s.settings.approval_ttl_seconds;
      versions['settings.yaml'] = settingsDoc.sequence;
    }
  }
  const approvedRulesets = settingsRead?.approved_rulesets_only ? settingsRead.approved_rulesets : undefined;

  const policies: GatePolicy[] = [];
  const rulebooks: GateRulebook[] = [];
  const pinned: string[] = [];
  let ruleset: GateRuleset | undefined;
  const addPolicy = (document: string, sequence: number, text: string) => {
    const read = readJsonText(text);
    if (!read.ok) unloadable(document, [read.diagnostic]);
    if (read.diagnostics.length > 0) unloadable(document, read.diagnostics);
    const compiled = compilePolicy(read.value);
    if (!compiled.ok) unloadable(document, compiled.errors);
    policies.push({ document, sequence, policy: compiled.policy });
  };
  if (agent.policy !== undefined) {
    const text = await running(ctx, agent.policy, versions);
    addPolicy(agent.policy, versions[agent.policy] as number, text);
  } else if (agent.ruleset !== undefined) {
    // The version the agent names, else the set's active one; a draft version or a set the gate refuses
    // (archived, disabled, draft, not approved, pinning a rule disabled since) runs nothing.
    const { view } = await readRulesetVersion(ctx, agent.ruleset, agent.ruleset_version).catch((err: unknown) => {
      if (err instanceof ApiError) unloadable(agent.ruleset as string, [{ message: err.message }]);
      throw err;
    });
    versions[agent.ruleset] = view.version_id;
    ruleset = { document: agent.ruleset, version: view.version_id, status: view.status };
    if (view.draft) ruleset.draftVersion = true;
    if (view.replaced_by !== undefined) ruleset.replaced_by = view.replaced_by;
    const unusable = view.pins.filter((p) => p.status === 'disabled' || p.status === 'archived').map((p) => p.rule_id);
    if (unusable.length > 0) ruleset.unusableRules = unusable;
    const runs =
      (view.status === 'active' || view.status === 'test') &&
      !view.draft &&
      unusable.length === 0 &&
      (approvedRulesets === undefined || isApprovedVersion(approvedRulesets, agent.ruleset, view.version_id));
    for (const rule of runs ? await loadPinnedRules(ctx, view).catch(rulesUnloadable) : []) {
      versions[rule.rule_id] = rule.version_id;
      if (rule.pinned) pinned.push(rule.rule_id);
      if (rule.kind === 'policy') policies.push({ document: rule.rule_id, sequence: rule.version_id, policy: rule.policy });
      else {
        const book: GateRulebook = { document: rule.rule_id, sequence: rule.version_id, rulebook: rule.rulebook };
        if (rule.overlay !== undefined) book.overlay = rule.overlay;
        rulebooks.push(book);
      }
    }
  }

  const parts: GateParts = {
    catalogue: catalogueRead.catalogue,
    rulebook,
    overlay,
    rulebooks,
    policies,
    ruleset,
    approvedRulesets,
    observeWindows: settingsRead?.observe_windows ?? [],
    delegation: agent.delegation,
    defaultApprovalTtlSeconds: ttl,
    disclosure: agent.disclosure,
    // Tools whose binding is not the authorized one run no call (docs/catalogue.md, "The authorized binding").
    unauthorizedTools: unauthorizedTools(ctx.db, agent.catalogue, catalogueRead.catalogue),
  };
  return { agent, pinned, versions, parts, prepared: prepareGate(parts) };
}

/** How long a decision's arguments are kept (their digest is kept always). */
export const ARGUMENTS_RETENTION_DAYS = 30;
const SWEEP_EVERY_MS = 3600_000;
const lastSweep = new WeakMap<AppContext, number>();

/** Forgets arguments past the retention period, at most once an hour per data folder. */
function sweepArguments(ctx: AppContext, now: Date): void {
  if (now.getTime() - (lastSweep.get(ctx) ?? 0) < SWEEP_EVERY_MS) return;
  lastSweep.set(ctx, now.getTime());
  forgetOldArguments(ctx.db, new Date(now.getTime() - ARGUMENTS_RETENTION_DAYS * 86_400_000));
}

const NO_QUERY: ReadonlySet<string> = new Set();

export function gateRoutes() {
  const app = router();
  // Described by callRoute, served by a plain handler: the request is checked by hand, synchronously and
  // with zod's issues (call-request.ts), instead of by zod-openapi's validators (issue 8).
  app.openAPIRegistry.registerPath(callRoute);
  app.post('/agents/:agent/calls', onlyDeclaredQuery(NO_QUERY), async (c) => {
    const ctx = c.get('ctx');
    const principal = c.get('principal');
    const name = c.req.param('agent');
    const badName = agentNameIssues(name);
    if (badName) return c.json(validationError(badName, 'param'), 400);
    const value = await readJsonBody(c, MAX_BODY_BYTES);
    if (value instanceof Response) return value;
    const issues = callBodyIssues(value);
    if (issues) return c.json(validationError(issues), 400);
    const body = value as CallRequestBody;
    if (principal.kind !== 'agent') throw new ApiError(403, 'AGENT_KEY_REQUIRED', "only the agent's own key sends its calls");
    if (principal.agent !== name) throw new ApiError(403, 'AGENT_MISMATCH', `this key belongs to ${principal.agent}, not ${name}`);
    const { loaded, versionsJson } = await loadAgentCached(ctx, name);
    const now = ctx.now();
    sweepArguments(ctx, now);
    const members = cachedJudgedMembers(ctx.db);
    const history = body.session === undefined ? [] : sessionHistory(ctx.db, name, body.session);
    const d = decidePrepared(loaded.prepared, {
      members,
      now,
      call: { tool: body.tool, arguments: body.arguments, history, contexts: body.contexts, confirmed: body.confirmed },
    });
    const callId = newCallId(now.getTime());
    const digest = argumentsDigest(body.arguments);
    const createdAt = now.toISOString();
    const approvalId = d.decision === 'require_approval' && d.approval ? randomUUID() : undefined;
    const row: DecisionRow = {
      call_id: callId,
      agent: name,
      tool: body.tool,
      action: d.action,
      amount: d.amount,
      currency: d.currency,
      decision: d.decision,
      rule: d.rule,
      code: d.code,
      versions: versionsJson,
      arguments: writeJson(body.arguments),
      arguments_digest: digest,
      session: body.session ?? null,
      created_at: createdAt,
    };
    // A held call and its approval request are written before the agent hears of it; any other decision
    // joins this tick's batch (see state/decision-log.ts).
    const log = decisionLogOf(ctx.db);
    if (approvalId && d.approval) {
      log.recordHeld(row, {
        id: approvalId,
        call_id: callId,
        agent: name,
        tool: body.tool,
        arguments_digest: digest,
        policy_document: d.approval.policy.document,
        policy_sequence: d.approval.policy.sequence,
        rule: d.rule,
        description: d.approval.description,
        approvers: JSON.stringify(d.approval.approvers),
        status: 'pending',
        expires_at: d.approval.expires_at,
        decided_by: null,
        decided_at: null,
        reason: null,
        signature: null,
        signed_content: null,
        claimed_at: null,
        created_at: createdAt,
      });
    } else {
      log.record(row);
    }
    if (approvalId) ctx.events.publish({ type: 'approval', id: approvalId, status: 'pending' });
    const answer: z.infer<typeof CallAnswer> = {
      call_id: callId,
      decision: d.decision,
      // At disclosure none the agent learns the decision only.
      rule: loaded.agent.disclosure === 'none' ? null : d.rule,
      code: loaded.agent.disclosure === 'none' ? null : d.code,
      explanation: { ...d.notice },
    };
    if (d.observed) answer.observed = d.observed;
    if (approvalId && d.approval) {
      answer.approval = { id: approvalId, expires_at: d.approval.expires_at, approvers_count: d.approval.approvers.length };
    }
    return c.json(answer, 200);
  });
  return app;
}
