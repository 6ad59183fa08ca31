// Routes: rule sets (rule-sets.txt). A set's pins are versioned in the store: every change of pins saves
// the next version as a draft, which runs for agents once activated, every pin at a version (a pin sent
// without one takes its rule's running version then). Status, metadata and the active version change without
// a new version (lifecycle state). Running a set judges every pinned rule in parallel, for one pass or fail;
// a run that fails midway records nothing.
import { createRoute, z } from '@hono/zod-openapi';
import { RULE_STATUSES, type RuleStatus } from '@tollgate/engine';
import { requireMember } from '../auth.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { hasStatus, lifecycleOf } from '../rulesets/lifecycle.ts';
import {
  assertNoDraftRules,
  assertPinsResolved,
  assertRulesetId,
  checkRulesetText,
  type RulesetVersionView,
  readRulesetVersion,
  rulesetText,
  rulesetVersions,
} from '../rulesets/ruleset-versions.ts';
import { RULE_TIMEOUT_MS, runRulesetVersion } from '../rulesets/run-version.ts';
import { RUNS_WINDOW_DAYS, runsSince } from '../rulesets/runs.ts';
import type { Role } from '../state/members.ts';
import { ErrorSchema, json, jsonBody, members, storeError } from './route-kit.ts';

// --- schemas -------------------------------------------------------------------------------------------

const IdParam = z
  .string()
  .min(1)
  .max(1024)
  .openapi({ param: { name: 'id', in: 'path' }, description: 'The rule set id, URL-encoded', example: 'rulesets/support.ruleset.json' });
const DocumentIdParam = z
  .string()
  .min(1)
  .max(1024)
  .openapi({
    param: { name: 'id', in: 'path' },
    description: 'A policy, sheet or Colang id, URL-encoded',
    example: 'policies/refunds.policy.json',
  });
const VersionQuery = z.object({
  version_id: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'expected a positive integer')
    .optional()
    .openapi({ param: { name: 'version_id', in: 'query' }, description: 'A rule-set version; the active one when left out' }),
});

const Status = z.enum(RULE_STATUSES);
const ListQuery = z.object({
  status: z
    .enum([...RULE_STATUSES, 'all'])
    .optional()
    .openapi({
      param: { name: 'status', in: 'query' },
      description: 'The sets of one status, or all of them; active sets when left out (docs/rulesets.md)',
    }),
});
const PinBody = z.object({ rule_id: z.string().min(1).max(1024), version_id: z.number().int().min(1).optional() }).strict();
const Tags = z.array(z.string()).max(32);

const PinSchema = z
  .object({
    rule_id: z.string(),
    version_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: 'The version pinned; null only in a version stored before pins were resolved, which runs nothing' }),
    used_version: z.number().int().nullable().openapi({ description: 'The version that runs for this pin' }),
    running_version: z.number().int().nullable(),
    newer: z.boolean().openapi({ description: 'A newer running version of the rule exists than the one pinned' }),
    kind: z.enum(['policy', 'sheet', 'colang']),
    status: Status,
    name: z.string().openapi({ description: "The rule's name: its file name without folder and kind suffix", example: 'refunds' }),
    description: z
      .string()
      .nullable()
      .openapi({ description: "A sheet's or Colang document's leading comment at the version used; null for a policy" }),
    owner: z.string().nullable().openapi({ description: 'Who created the rule: the author of its first version' }),
  })
  .openapi('RulesetPin');

const RulesetSchema = z
  .object({
    id: z.string(),
    version_id: z.number().int(),
    active_version: z.number().int().nullable(),
    draft: z.boolean(),
    status: Status,
    replaced_by: z.string().optional(),
    name: z.string(),
    description: z.string().optional(),
    tags: z.array(z.string()).optional(),
    pins: z.array(PinSchema),
    newer_pins: z.number().int().openapi({ description: 'How many pins have a newer running version' }),
    runs_last_30_days: z.number().int(),
    versions: z.array(
      z.object({
        version_id: z.number().int(),
        author: z.string(),
        reason: z.string(),
        created_at: z.string(),
        active: z.boolean(),
        draft: z.boolean(),
      }),
    ),
  })
  .openapi('Ruleset');

const CreateBody = z
  .object({
    id: z.string().min(1).max(1024).openapi({ example: 'rulesets/support.ruleset.json' }),
    name: z.string(),
    description: z.string().optional(),
    tags: Tags.optional(),
    pins: z.array(PinBody),
    reason: z.string().min(1).max(2000).optional(),
  })
  .strict()
  .openapi('RulesetCreate');

const UpdateBody = z
  .object({
    pins: z.array(PinBody).optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    tags: Tags.optional(),
    status: Status.optional(),
    replaced_by: z.string().min(1).max(1024).optional(),
    active_version: z.number().int().min(1).optional(),
    reason: z.string().min(1).max(2000).optional(),
  })
  .strict()
  .openapi('RulesetUpdate');

const LatestBody = z
  .object({
    rule_ids: z.array(z.string()).optional().openapi({ description: 'The pins to move; every pin with a newer version when left out' }),
    reason: z.string().min(1).max(2000).optional(),
  })
  .strict()
  .openapi('RulesetUpdateToLatest');

const ArchiveBody = z
  .object({ replaced_by: z.string().min(1).max(1024).optional(), reason: z.string().min(1).max(2000).optional() })
  .strict()
  .openapi('RulesetArchive');

const CallBody = z
  .object({
    tool: z.string().min(1).max(256),
    arguments: z.unknown(),
    history: z.array(z.object({ tool: z.string(), arguments: z.unknown().optional(), result: z.unknown().optional() })).optional(),
    contexts: z.record(z.string(), z.unknown()).optional(),
    confirmed: z.boolean().optional(),
  })
  .strict();
const ValidateBody = z
  .object({ call: CallBody, version_id: z.number().int().min(1).optional() })
  .strict()
  .openapi('RulesetValidate');

const RunSchema = z
  .object({
    ruleset: z.string(),
    version_id: z.number().int(),
    verdict: z.enum(['pass', 'fail']).openapi({ description: 'pass only if every rule passes; a rule that fails or holds fails the set' }),
    failed: z.array(z.string()).openapi({ description: 'The rules that did not pass (failed or held), in pin order' }),
    held: z.array(z.string()).openapi({ description: 'Of those, the rules that hold the call for a person' }),
    results: z.array(
      z.object({
        rule_id: z.string(),
        version_id: z.number().int(),
        pinned: z.boolean(),
        kind: z.enum(['policy', 'sheet', 'colang']),
        result: z.enum(['pass', 'hold', 'fail']),
        decision: z.string(),
        code: z.string().nullable(),
        rule: z.string().nullable(),
        summary: z.string(),
      }),
    ),
  })
  .openapi('RulesetRun');

const StatusBody = z.object({ status: Status }).strict().openapi('RuleStatusChange');

const errors = {
  400: json(ErrorSchema, 'The request is not valid'),
  401: json(ErrorSchema, 'A missing or unknown key'),
  403: json(ErrorSchema, 'A lacking role'),
  404: json(ErrorSchema, 'No such rule set or version'),
  409: json(ErrorSchema, 'The change conflicts with the set’s state (archived, pins a draft rule, nothing to update)'),
  422: json(ErrorSchema, 'RULESET_REFUSED: the pins are refused; details name every rule at fault'),
};

// --- helpers -------------------------------------------------------------------------------------------

const AUTHORS: Role[] = ['owner', 'admin', 'developer'];
const STEWARDS: Role[] = ['owner', 'admin'];

async function fullView(ctx: AppContext, id: string, versionId?: number) {
  const { view } = await readRulesetVersion(ctx, id, versionId);
  return withCounts(ctx, view);
}

async function withCounts(ctx: AppContext, view: RulesetVersionView) {
  const since = new Date(ctx.now().getTime() - RUNS_WINDOW_DAYS * 86_400_000);
  return {
    ...view,
    newer_pins: view.pins.filter((p) => p.newer).length,
    runs_last_30_days: runsSince(ctx.db, view.id, since),
    versions: await rulesetVersions(ctx, view.id),
  };
}

async function assertReplacement(ctx: AppContext, id: string, replacement: string): Promise<void> {
  if (replacement === id) throw new ApiError(400, 'INVALID_REPLACEMENT', 'a rule set cannot replace itself');
  assertRulesetId(replacement);
  const history = await ctx.store.history(replacement).catch(() => []);
  if (!history.some((v) => !v.rejected)) throw new ApiError(404, 'RULESET_NOT_FOUND', `no rule set ${replacement} to point agents at`);
}

/** Saves the next version of a set's pins, as a draft: it runs once someone activates it. */
async function saveDraftVersion(
  ctx: AppContext,
  id: string,
  set: { name: string; description?: string; tags?: string[]; pins: { rule_id: string; version_id?: number }[] },
  author: { kind: 'person' | 'developer'; label: string },
  reason: string,
): Promise<number> {
  const text = rulesetText(await checkRulesetText(ctx, rulesetText(set)));
  const saved = await ctx.store.save({ id, text, author, reason, activate: false }).catch(storeError);
  ctx.events.publish({ type: 'document', id, sequence: saved.sequence });
  return saved.sequence;
}

function authorOf(member: { name: string; role: Role }) {
  return { kind: member.role === 'developer' ? ('developer' as const) : ('person' as const), label: member.name };
}

// --- routes --------------------------------------------------------------------------------------------

const listRoute = createRoute({
  method: 'get',
  path: '/rulesets',
  tags: ['rulesets'],
  summary: 'The active rule sets (or those of ?status=), each at its active version, with newer-version flags per pin',
  middleware: [members()] as const,
  request: { query: ListQuery },
  responses: { 200: json(z.object({ rulesets: z.array(RulesetSchema) }), 'The rule sets'), ...errors },
});

const getRoute = createRoute({
  method: 'get',
  path: '/rulesets/{id}',
  tags: ['rulesets'],
  summary: 'A rule set at a version (the active one by default), its pins resolved',
  middleware: [members()] as const,
  request: { params: z.object({ id: IdParam }), query: VersionQuery },
  responses: { 200: json(RulesetSchema, 'The rule set'), ...errors },
});

const createRulesetRoute = createRoute({
  method: 'post',
  path: '/rulesets',
  tags: ['rulesets'],
  summary: 'Creates a rule set, as a draft (owner, admin or developer)',
  middleware: [members(...AUTHORS)] as const,
  request: { body: jsonBody(CreateBody) },
  responses: { 201: json(RulesetSchema, 'The new rule set, version 1, draft'), ...errors },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/rulesets/{id}',
  tags: ['rulesets'],
  summary: 'New pins save the next version as a draft; status, metadata or the active version change without one',
  middleware: [members(...AUTHORS)] as const,
  request: { params: z.object({ id: IdParam }), body: jsonBody(UpdateBody) },
  responses: { 200: json(RulesetSchema, 'The rule set after the change'), ...errors },
});

const latestRoute = createRoute({
  method: 'post',
  path: '/rulesets/{id}/update-to-latest',
  tags: ['rulesets'],
  summary: 'Re-pins one, several or all rules to their running versions, as the next version in draft',
  middleware: [members(...AUTHORS)] as const,
  request: { params: z.object({ id: IdParam }), body: jsonBody(LatestBody) },
  responses: { 200: json(RulesetSchema, 'The new draft version'), ...errors },
});

const archiveRoute = createRoute({
  method: 'post',
  path: '/rulesets/{id}/archive',
  tags: ['rulesets'],
  summary: 'Archives a rule set, naming a replacement agents are pointed at (owner or admin)',
  middleware: [members(...STEWARDS)] as const,
  request: { params: z.object({ id: IdParam }), body: jsonBody(ArchiveBody) },
  responses: { 200: json(RulesetSchema, 'The archived set'), ...errors },
});

const restoreRoute = createRoute({
  method: 'post',
  path: '/rulesets/{id}/restore',
  tags: ['rulesets'],
  summary: 'Restores an archived rule set to the status it had (owner or admin)',
  middleware: [members(...STEWARDS)] as const,
  request: { params: z.object({ id: IdParam }) },
  responses: { 200: json(RulesetSchema, 'The restored set'), ...errors },
});

const validateRoute = createRoute({
  method: 'post',
  path: '/rulesets/{id}/validate',
  tags: ['rulesets'],
  summary: 'Runs a rule set (the active version, or version_id) against one call; every rule judged in parallel',
  middleware: [members()] as const,
  request: { params: z.object({ id: IdParam }), body: jsonBody(ValidateBody) },
  responses: {
    200: json(RunSchema, "The set's verdict, the rules that failed, and each rule's own result"),
    ...errors,
    503: json(ErrorSchema, 'RULESET_RUN_FAILED: a rule threw or gave no answer in time; nothing was recorded'),
  },
});

const statusRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/status',
  tags: ['rulesets'],
  summary: "Sets a rule document's status: draft, test, active, disabled or archived (owner or admin)",
  middleware: [members(...STEWARDS)] as const,
  request: { params: z.object({ id: DocumentIdParam }), body: jsonBody(StatusBody) },
  responses: { 200: json(z.object({ id: z.string(), status: Status }), 'The status now'), ...errors },
});

export function rulesetRoutes(options: { ruleTimeoutMs?: number } = {}) {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const ctx = c.get('ctx');
    const wanted = c.req.valid('query').status ?? 'active';
    const ids = (await ctx.store.list()).filter((id) => id.startsWith('rulesets/') && id.endsWith('.ruleset.json'));
    const rulesets = [];
    const lifecycle = lifecycleOf(ctx.store);
    for (const id of ids) {
      if (wanted !== 'all' && (await lifecycle.statusOf(id)) !== wanted) continue;
      const read = await readRulesetVersion(ctx, id).catch((err: unknown) => {
        if (err instanceof ApiError) return undefined; // no active version, or a text that no longer loads
        throw err;
      });
      if (read) rulesets.push(await withCounts(ctx, read.view));
    }
    return c.json({ rulesets }, 200);
  });

  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    const { version_id } = c.req.valid('query');
    return c.json(await fullView(c.get('ctx'), id, version_id === undefined ? undefined : Number(version_id)), 200);
  });

  app.openapi(createRulesetRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = requireMember(c.get('principal'), ...AUTHORS);
    const b = c.req.valid('json');
    assertRulesetId(b.id);
    if ((await ctx.store.history(b.id).catch(storeError)).length > 0) {
      throw new ApiError(409, 'RULESET_EXISTS', `${b.id} exists already; change its pins with PATCH`);
    }
    const text = rulesetText(await checkRulesetText(ctx, rulesetText(b)));
    // The first version is the set's active version; the set itself starts as a draft, so no agent runs it.
    const saved = await ctx.store
      .save({ id: b.id, text, author: authorOf(member), reason: b.reason ?? 'created', basedOn: null })
      .catch(storeError);
    await lifecycleOf(ctx.store).update(b.id, { status: 'draft' }, member.name, ctx.now());
    ctx.events.publish({ type: 'document', id: b.id, sequence: saved.sequence });
    return c.json(await fullView(ctx, b.id, saved.sequence), 201);
  });

  app.openapi(updateRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = requireMember(c.get('principal'), ...AUTHORS);
    const { id } = c.req.valid('param');
    const b = c.req.valid('json');
    const current = await readRulesetVersion(ctx, id);
    const lifecycle = lifecycleOf(ctx.store);
    const touchesLifecycle = b.status !== undefined || b.active_version !== undefined || b.replaced_by !== undefined;
    if (touchesLifecycle) requireMember(c.get('principal'), ...STEWARDS);

    if (b.pins !== undefined) {
      if (touchesLifecycle) {
        throw new ApiError(
          400,
          'PINS_WITH_STATUS',
          'new pins save a draft version: change status or the active version in a second request',
        );
      }
      const set = {
        name: b.name ?? current.view.name,
        description: b.description ?? current.view.description,
        tags: b.tags ?? current.view.tags,
        pins: b.pins,
      };
      const version = await saveDraftVersion(ctx, id, set, authorOf(member), b.reason ?? 'pins changed');
      // The metadata now lives in the new version's text; overrides would hide it.
      await lifecycle.update(id, { name: undefined, description: undefined, tags: undefined }, member.name, ctx.now());
      return c.json(await fullView(ctx, id, version), 200);
    }

    const record = await lifecycle.of(id);
    if (record.status === 'archived' && b.status === undefined) {
      throw new ApiError(409, 'RULESET_ARCHIVED', `${id} is archived: restore it before changing it`);
    }
    let activeVersion = current.view.version_id;
    if (b.active_version !== undefined && b.active_version !== current.view.active_version) {
      const target = await readRulesetVersion(ctx, id, b.active_version);
      const willBeActive = (b.status ?? record.status) === 'active';
      assertPinsResolved(target.view);
      if (willBeActive) assertNoDraftRules(target.view);
      await ctx.store.activate(id, b.active_version).catch(storeError);
      activeVersion = b.active_version;
      ctx.events.publish({ type: 'document', id, sequence: b.active_version });
    }
    const change: Parameters<typeof lifecycle.update>[1] = {};
    if (b.name !== undefined) change.name = b.name;
    if (b.description !== undefined) change.description = b.description;
    if (b.tags !== undefined) change.tags = b.tags;
    if (b.status !== undefined) {
      if (b.status === 'active' || b.status === 'test') {
        // The version that would run must be runnable: every pin at a version, and (active) no draft rule.
        const running = (await readRulesetVersion(ctx, id, activeVersion)).view;
        assertPinsResolved(running);
        if (b.status === 'active') assertNoDraftRules(running);
      }
      change.status = b.status;
      if (b.status === 'archived') change.restores_to = record.status === 'archived' ? undefined : record.status;
      else change.replaced_by = undefined;
    }
    if (b.replaced_by !== undefined) {
      if ((b.status ?? record.status) !== 'archived') {
        throw new ApiError(400, 'REPLACED_BY_NOT_ARCHIVED', 'replaced_by names the replacement of an archived set: archive it too');
      }
      await assertReplacement(ctx, id, b.replaced_by);
      change.replaced_by = b.replaced_by;
    }
    if (b.name !== undefined || b.description !== undefined || b.tags !== undefined) {
      // Metadata is checked as the text would be, so a name too long is refused the same way.
      await checkRulesetText(
        ctx,
        rulesetText({
          ...current.ruleset,
          name: b.name ?? current.view.name,
          description: b.description ?? current.view.description,
          tags: b.tags ?? current.view.tags,
        }),
      );
    }
    if (Object.keys(change).length > 0) await lifecycle.update(id, change, member.name, ctx.now());
    return c.json(await fullView(ctx, id), 200);
  });

  app.openapi(latestRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = requireMember(c.get('principal'), ...AUTHORS);
    const { id } = c.req.valid('param');
    const b = c.req.valid('json');
    // The newest version is the base, so a second update builds on a draft not yet activated.
    const versions = await rulesetVersions(ctx, id).catch(storeError);
    const newest = versions[versions.length - 1];
    if (!newest) throw new ApiError(404, 'RULESET_NOT_FOUND', `no rule set ${id}`);
    const base = await readRulesetVersion(ctx, id, newest.version_id);
    if ((await lifecycleOf(ctx.store).statusOf(id)) === 'archived')
      throw new ApiError(409, 'RULESET_ARCHIVED', `${id} is archived: restore it first`);
    const unknown = (b.rule_ids ?? []).filter((r) => !base.view.pins.some((p) => p.rule_id === r));
    if (unknown.length > 0) throw new ApiError(400, 'PIN_NOT_FOUND', `the set pins no ${unknown.join(', ')}`, { rules: unknown });
    const wanted = (pin: { rule_id: string }) => b.rule_ids === undefined || b.rule_ids.includes(pin.rule_id);
    const moved = base.view.pins.filter((p) => wanted(p) && p.newer);
    if (moved.length === 0) throw new ApiError(409, 'PINS_CURRENT', 'every pin named is at its rule’s running version already');
    const pins = base.ruleset.pins.map((pin) => {
      const view = moved.find((p) => p.rule_id === pin.rule_id);
      return view?.running_version != null ? { rule_id: pin.rule_id, version_id: view.running_version } : pin;
    });
    const reason = b.reason ?? `update to latest: ${moved.map((p) => `${p.rule_id} ${p.version_id} -> ${p.running_version}`).join(', ')}`;
    const version = await saveDraftVersion(ctx, id, { ...base.ruleset, pins }, authorOf(member), reason);
    return c.json(await fullView(ctx, id, version), 200);
  });

  app.openapi(archiveRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = requireMember(c.get('principal'), ...STEWARDS);
    const { id } = c.req.valid('param');
    const b = c.req.valid('json');
    await readRulesetVersion(ctx, id);
    const lifecycle = lifecycleOf(ctx.store);
    const record = await lifecycle.of(id);
    if (record.status === 'archived') throw new ApiError(409, 'RULESET_ARCHIVED', `${id} is archived already`);
    if (b.replaced_by !== undefined) await assertReplacement(ctx, id, b.replaced_by);
    await lifecycle.update(id, { status: 'archived', restores_to: record.status, replaced_by: b.replaced_by }, member.name, ctx.now());
    return c.json(await fullView(ctx, id), 200);
  });

  app.openapi(restoreRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = requireMember(c.get('principal'), ...STEWARDS);
    const { id } = c.req.valid('param');
    const { view } = await readRulesetVersion(ctx, id);
    const lifecycle = lifecycleOf(ctx.store);
    const record = await lifecycle.of(id);
    if (record.status !== 'archived') throw new ApiError(409, 'RULESET_NOT_ARCHIVED', `${id} is ${record.status}, not archived`);
    let status: RuleStatus = 'restores_to' in record && record.restores_to !== undefined ? record.restores_to : 'draft';
    // Back to active only while the active version still pins no draft rule; else a draft.
    if (status === 'active' && view.pins.some((p) => p.status === 'draft')) status = 'draft';
    await lifecycle.update(id, { status, restores_to: undefined, replaced_by: undefined }, member.name, ctx.now());
    return c.json(await fullView(ctx, id), 200);
  });

  app.openapi(validateRoute, async (c) => {
    const { id } = c.req.valid('param');
    const b = c.req.valid('json');
    const run = await runRulesetVersion(c.get('ctx'), id, b.call, {
      ...(b.version_id === undefined ? {} : { versionId: b.version_id }),
      timeoutMs: options.ruleTimeoutMs ?? RULE_TIMEOUT_MS,
    });
    return c.json(run, 200);
  });

  app.openapi(statusRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = requireMember(c.get('principal'), ...STEWARDS);
    const { id } = c.req.valid('param');
    const { status } = c.req.valid('json');
    if (!hasStatus(id) || id.startsWith('rulesets/')) {
      throw new ApiError(
        400,
        'NO_STATUS',
        `${id} is not a rule document (a policy, sheet or Colang file); rule sets change status through /v1/rulesets`,
      );
    }
    const history = await ctx.store.history(id).catch(storeError);
    if (!history.some((v) => !v.rejected)) throw new ApiError(404, 'NOT_FOUND', `no rule ${id}`);
    await lifecycleOf(ctx.store).update(id, { status }, member.name, ctx.now());
    return c.json({ id, status }, 200);
  });

  return app;
}
