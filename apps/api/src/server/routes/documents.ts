// Routes: documents. Each route is declared with createRoute and zod schemas, so it is described in /v1/openapi.json.
// Ids hold slashes and travel URL-encoded as one path segment (/v1/documents/policies%2Frefunds.policy.json).
import { createRoute, z } from '@hono/zod-openapi';
import { analyzeImpact, documentKindOf, validateDocument } from '@tollgate/engine';
import type { DocumentVersion, EditImpact, StoredDocument } from '@tollgate/store';
import { createTwoFilesPatch } from 'diff';
import { requireMember } from '../auth.ts';
import type { AppContext } from '../context.ts';
import { DiagnosticSchema, diagnosticsJson } from '../diagnostic-schema.ts';
import { ApiError } from '../errors.ts';
import { router } from '../openapi.ts';
import { lifecycleOf } from '../rulesets/lifecycle.ts';
import { assertActivatable } from '../rulesets/ruleset-versions.ts';
import { checkAgainstStore } from '../rulesets/store-checks.ts';
import { cachedJudgedMembers } from '../state/auth-cache.ts';
import { authorizationsOf, changedBindings, readCatalogueTools } from '../state/tool-bindings.ts';
import { ErrorSchema, json, members, storeError } from './route-kit.ts';

type Diagnostic = ReturnType<typeof validateDocument>['problems'][number];

// --- schemas -------------------------------------------------------------------------------------------

const IdParam = z
  .string()
  .min(1)
  .max(1024)
  .openapi({
    param: { name: 'id', in: 'path' },
    description: 'The document id, URL-encoded as one path segment',
    example: 'policies/refunds.policy.json',
  });

const SEQUENCE = /^[1-9][0-9]{0,8}$/;
const SequenceText = z.string().regex(SEQUENCE, 'expected a positive integer');

const AuthorSchema = z.object({
  kind: z.enum(['person', 'developer', 'model', 'external', 'system']),
  label: z.string(),
});

const VersionSchema = z
  .object({
    sequence: z.number().int(),
    author: AuthorSchema,
    reason: z.string(),
    based_on: z.number().int().nullable(),
    created_at: z.string(),
    running: z.boolean(),
    rejected: z.boolean(),
    problems: z.array(z.string()),
    digest: z.string(),
    bytes: z.number().int(),
  })
  .openapi('DocumentVersion');

const ImpactSchema = z.object({ widens_security: z.boolean(), widened_subjects: z.array(z.string()) }).openapi('EditImpact');

const ProblemSchema = z
  .object({
    source: z.enum(['store', 'version', 'document']),
    code: z.string(),
    severity: z.enum(['error', 'warning', 'info']),
    message: z.string(),
    line: z.number().int().optional(),
    path: z.string().optional(),
  })
  .openapi('DocumentProblem');

const STATUSES = ['running', 'newer_rejected', 'newer_not_running', 'rejected_only', 'not_loaded'] as const;
type DocumentStatus = (typeof STATUSES)[number];

const SummarySchema = z
  .object({
    id: z.string(),
    kind: z.string().nullable(),
    status: z.enum(STATUSES).openapi({
      description:
        'running: the newest version runs; newer_rejected: a newer working copy did not load and an older version runs; newer_not_running: a newer version is stored as a candidate; rejected_only: no version loads; not_loaded: the store could not read it',
    }),
    running_sequence: z.number().int().nullable(),
    versions: z.number().int(),
    problems: z.array(ProblemSchema),
  })
  .openapi('DocumentSummary');

const DocumentSchema = z
  .object({ id: z.string(), kind: z.string().nullable(), version: VersionSchema, text: z.string() })
  .openapi('Document');

const OutcomeSchema = z
  .object({
    status: z.enum(['applied', 'saved_not_running', 'refused', 'rejected', 'conflict']),
    version: VersionSchema.optional(),
    reasons: z.array(DiagnosticSchema),
    impact: ImpactSchema,
  })
  .openapi('EditOutcome');

const EditBody = z
  .object({
    content: z.string(),
    reason: z.string().min(1).max(2000),
    based_on: z.number().int().min(1).nullable().optional().openapi({
      description: 'The running version the content was written from (null: no version yet); left out, not checked',
    }),
  })
  .strict()
  .openapi('DocumentEdit');

const ActivateBody = z
  .object({ sequence: z.number().int().min(1) })
  .strict()
  .openapi('DocumentActivate');

const VersionResult = z.object({ id: z.string(), version: VersionSchema }).openapi('DocumentVersionResult');

const DiffSchema = z
  .object({ id: z.string(), from: z.number().int(), to: z.number().int(), unified: z.string(), impact: ImpactSchema })
  .openapi('DocumentDiff');

const errors = {
  400: json(ErrorSchema, 'The request is not valid'),
  401: json(ErrorSchema, 'A missing or unknown key'),
  403: json(ErrorSchema, 'A lacking role'),
  404: json(ErrorSchema, 'No such document or version'),
};

// --- helpers -------------------------------------------------------------------------------------------

function versionJson(v: DocumentVersion) {
  return {
    sequence: v.sequence,
    author: { kind: v.author.kind, label: v.author.label },
    reason: v.reason,
    based_on: v.basedOn,
    created_at: v.createdAt,
    running: v.running,
    rejected: v.rejected,
    problems: [...v.problems],
    digest: v.digest,
    bytes: v.bytes,
  };
}

function impactJson(i: EditImpact) {
  return { widens_security: i.widensSecurity, widened_subjects: [...i.widenedSubjects] };
}

function documentJson(d: StoredDocument) {
  return { id: d.id, kind: documentKindOf(d.id) ?? null, version: versionJson(d), text: d.text };
}

function sequenceOf(text: string): number {
  return Number(text);
}

async function version(ctx: AppContext, id: string, sequence: number): Promise<StoredDocument> {
  const v = await ctx.store.getVersion(id, sequence).catch(storeError);
  if (!v) {
    await refuseDamaged(ctx, id, sequence);
    throw new ApiError(404, 'NOT_FOUND', `${id} has no version ${sequence}`);
  }
  return v;
}

/** A version the history names but whose file cannot be read is damaged, not missing: 409 DAMAGED, with the file named. */
async function refuseDamaged(ctx: AppContext, id: string, sequence: number | undefined): Promise<void> {
  const history = await ctx.store.history(id).catch(() => []);
  const named = history.find((v) => (sequence === undefined ? v.running : v.sequence === sequence));
  if (!named) return;
  const problem = ctx.store
    .problems()
    .find((p) => p.id === id && p.code === 'DAMAGED_VERSION' && p.message.includes(`version ${named.sequence}:`));
  throw new ApiError(409, 'DAMAGED', problem?.message ?? `${id} version ${named.sequence} is stored, but its file is damaged`);
}

/** A note of the store checks (pins taken at their running versions) as an outcome's reason. */
function pinNote(message: string): Diagnostic {
  return { code: 'PINNED_AT_RUNNING', severity: 'info', message };
}

function diagnosticJson(d: Diagnostic, fallback: 'error' | 'warning') {
  const severity = d.severity === 'error' || d.severity === 'warning' || d.severity === 'info' ? d.severity : fallback;
  return {
    source: 'document' as const,
    code: d.code,
    severity,
    message: d.message,
    ...(d.line !== undefined ? { line: d.line } : {}),
    ...(d.path !== undefined ? { path: d.path } : {}),
  };
}

/**
 * Only an owner or admin changes a tool's binding (docs/catalogue.md, "The authorized binding"): a
 * developer's catalogue edit that changes the action or amount mapping of a running tool is refused. Text
 * that does not load is left to the seam, which refuses it with its problems.
 */
async function refuseBindingChange(ctx: AppContext, id: string, content: string): Promise<void> {
  const after = readCatalogueTools(id, content);
  if (!after) return;
  const running = await ctx.store.get(id).catch(storeError);
  const before = (running ? readCatalogueTools(id, running.text) : undefined) ?? new Map();
  const changed = changedBindings(before, after, authorizationsOf(ctx.db, id));
  if (changed.length === 0) return;
  throw new ApiError(
    403,
    'BINDING_CHANGE_FORBIDDEN',
    `only an owner or admin can change a tool's binding (its action or amount mapping); this edit changes ${changed.join(', ')}`,
    { tools: changed },
  );
}

/** A policy version runs only while its approvers.users are members able to approve (docs/policy.md, "Approvers"). */
function refuseUnknownApprovers(id: string, text: string, ctx: AppContext): void {
  const approverCodes = new Set(['UNKNOWN_APPROVER', 'APPROVER_ROLE_NOT_CAPABLE']);
  const problems = validateDocument(id, text, { members: cachedJudgedMembers(ctx.db) }).problems.filter((p) => approverCodes.has(p.code));
  if (problems.length === 0) return;
  throw new ApiError(422, 'INVALID_POLICY', `${id}: ${problems[0]?.message}, so this version cannot run`, {
    errors: problems.map((p) => ({ code: p.code, path: p.path ?? '', message: p.message })),
  });
}

function statusOf(history: DocumentVersion[]): DocumentStatus {
  const running = history.find((v) => v.running);
  const newest = history[history.length - 1];
  if (!running || !newest) return history.length === 0 ? 'not_loaded' : 'rejected_only';
  if (newest.sequence === running.sequence) return 'running';
  return history.some((v) => v.sequence > running.sequence && v.rejected) ? 'newer_rejected' : 'newer_not_running';
}

// --- routes --------------------------------------------------------------------------------------------

const listRoute = createRoute({
  method: 'get',
  path: '/documents',
  tags: ['documents'],
  summary: 'Every document: kind, status, running sequence and problems',
  middleware: [members()] as const,
  responses: { 200: json(z.object({ documents: z.array(SummarySchema) }), 'The documents'), ...errors },
});

const getRoute = createRoute({
  method: 'get',
  path: '/documents/{id}',
  tags: ['documents'],
  summary: 'The running version of a document, with its text',
  middleware: [members()] as const,
  request: { params: z.object({ id: IdParam }) },
  responses: {
    200: json(DocumentSchema, 'The running version'),
    ...errors,
    409: json(ErrorSchema, "DAMAGED: the running version's file is damaged"),
  },
});

const historyRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/history',
  tags: ['documents'],
  summary: 'Every stored version, oldest first, rejected ones included',
  middleware: [members()] as const,
  request: { params: z.object({ id: IdParam }) },
  responses: {
    200: json(z.object({ id: z.string(), versions: z.array(VersionSchema) }), 'The versions'),
    ...errors,
  },
});

const versionRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/versions/{sequence}',
  tags: ['documents'],
  summary: 'One stored version, with its text',
  middleware: [members()] as const,
  request: {
    params: z.object({ id: IdParam, sequence: SequenceText.openapi({ param: { name: 'sequence', in: 'path' }, example: '1' }) }),
  },
  responses: { 200: json(DocumentSchema, 'The version'), ...errors, 409: json(ErrorSchema, "DAMAGED: the version's file is damaged") },
});

const editRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/edits',
  tags: ['documents'],
  summary: 'Submits an edit through the edit seam (owner, admin or developer)',
  middleware: [members('owner', 'admin', 'developer')] as const,
  request: {
    params: z.object({ id: IdParam }),
    body: { required: true, content: { 'application/json': { schema: EditBody } } },
  },
  responses: {
    201: json(OutcomeSchema, 'Stored: applied, or saved_not_running'),
    400: errors[400],
    401: errors[401],
    403: json(
      z.union([OutcomeSchema, ErrorSchema]),
      "rejected by a writer (an outcome), or a lacking role (an error: ROLE_REQUIRED, or BINDING_CHANGE_FORBIDDEN for a developer's edit that changes a tool's binding)",
    ),
    409: json(OutcomeSchema, 'conflict: the document changed since based_on; nothing stored'),
    422: json(OutcomeSchema, 'refused: the content does not load or is too large; nothing stored'),
    503: json(
      OutcomeSchema,
      'refused: the store is busy (another process holds its lock); nothing stored; retry after Retry-After seconds',
    ),
  },
});

const activateRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/activate',
  tags: ['documents'],
  summary: 'Runs a stored, loadable version (owner or admin)',
  middleware: [members('owner', 'admin')] as const,
  request: {
    params: z.object({ id: IdParam }),
    body: { required: true, content: { 'application/json': { schema: ActivateBody } } },
  },
  responses: {
    200: json(VersionResult, 'The version now running'),
    ...errors,
    409: json(ErrorSchema, 'A rejected version cannot run (REJECTED_VERSION), or its file is damaged (DAMAGED)'),
    422: json(
      ErrorSchema,
      "INVALID_POLICY: a policy version whose approvers.users are not the workspace's members able to approve (details.errors: UNKNOWN_APPROVER, APPROVER_ROLE_NOT_CAPABLE)",
    ),
    503: json(ErrorSchema, 'LOCKED: the store is busy; retry after Retry-After seconds'),
  },
});

const revertRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/revert',
  tags: ['documents'],
  summary: 'Runs the version that ran before the current one (owner or admin)',
  middleware: [members('owner', 'admin')] as const,
  request: { params: z.object({ id: IdParam }) },
  responses: {
    200: json(VersionResult, 'The version now running'),
    ...errors,
    409: json(ErrorSchema, 'Nothing to revert to, or the version to return to is damaged (DAMAGED)'),
    503: json(ErrorSchema, 'LOCKED: the store is busy; retry after Retry-After seconds'),
  },
});

const diffRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/diff',
  tags: ['documents'],
  summary: 'A unified diff of two versions and what the second widens over the first',
  middleware: [members()] as const,
  request: {
    params: z.object({ id: IdParam }),
    query: z.object({
      from: SequenceText.openapi({ param: { name: 'from', in: 'query' }, example: '1' }),
      to: SequenceText.optional().openapi({
        param: { name: 'to', in: 'query' },
        description: 'The running version when left out',
      }),
    }),
  },
  responses: { 200: json(DiffSchema, 'The diff'), ...errors, 409: json(ErrorSchema, "DAMAGED: a version's file is damaged") },
});

/** The document routes: list, read, history, versions, edits, activate, revert and diff. */
export function documentRoutes() {
  const app = router();

  app.openapi(listRoute, async (c) => {
    const ctx = c.get('ctx');
    const storeProblems = ctx.store.problems();
    const ids = new Set(await ctx.store.list());
    for (const p of storeProblems) if (documentKindOf(p.id) !== undefined || ids.has(p.id)) ids.add(p.id);
    const histories = new Map<string, DocumentVersion[]>();
    for (const id of [...ids].sort()) histories.set(id, await ctx.store.history(id).catch(() => []));
    // Reference checks against what is stored, so a rule set or agent naming a missing document shows it.
    const exists = (id: string, sequence?: number) =>
      (histories.get(id) ?? []).some((v) => !v.rejected && (sequence === undefined || v.sequence === sequence));
    const documents = [];
    for (const [id, history] of histories) {
      const problems: z.infer<typeof ProblemSchema>[] = storeProblems
        .filter((p) => p.id === id)
        .map((p) => ({ source: 'store' as const, code: p.code, severity: 'error' as const, message: p.message }));
      const running = history.find((v) => v.running);
      const status = statusOf(history);
      if (status === 'newer_rejected' || status === 'rejected_only') {
        const newest = history[history.length - 1];
        for (const message of newest?.problems ?? []) {
          problems.push({ source: 'version', code: 'REJECTED_VERSION', severity: 'error', message });
        }
      }
      if (running) {
        const stored = await ctx.store.getVersion(id, running.sequence).catch(() => undefined);
        if (stored && documentKindOf(id) !== undefined) {
          const checked = validateDocument(id, stored.text, { exists, members: cachedJudgedMembers(ctx.db) });
          for (const d of checked.problems) problems.push(diagnosticJson(d, 'error'));
          for (const d of checked.lints) problems.push(diagnosticJson(d, 'warning'));
        }
      }
      documents.push({
        id,
        kind: documentKindOf(id) ?? null,
        status,
        running_sequence: running?.sequence ?? null,
        versions: history.length,
        problems,
      });
    }
    return c.json({ documents }, 200);
  });

  app.openapi(getRoute, async (c) => {
    const { id } = c.req.valid('param');
    const doc = await c.get('ctx').store.get(id).catch(storeError);
    if (!doc) {
      await refuseDamaged(c.get('ctx'), id, undefined);
      throw new ApiError(404, 'NOT_FOUND', `no version of ${id} runs`);
    }
    return c.json(documentJson(doc), 200);
  });

  app.openapi(historyRoute, async (c) => {
    const { id } = c.req.valid('param');
    const history = await c.get('ctx').store.history(id).catch(storeError);
    if (history.length === 0) throw new ApiError(404, 'NOT_FOUND', `${id} has no versions`);
    return c.json({ id, versions: history.map(versionJson) }, 200);
  });

  app.openapi(versionRoute, async (c) => {
    const { id, sequence } = c.req.valid('param');
    return c.json(documentJson(await version(c.get('ctx'), id, sequenceOf(sequence))), 200);
  });

  app.openapi(editRoute, async (c) => {
    const ctx = c.get('ctx');
    const member = requireMember(c.get('principal'), 'owner', 'admin', 'developer');
    const { id } = c.req.valid('param');
    const body = c.req.valid('json');
    if (documentKindOf(id) === 'catalogue' && member.role === 'developer') await refuseBindingChange(ctx, id, body.content);
    // A rule set's pins and the settings' approved versions are checked against the store here (the seam's
    // validators read the text alone); a set's pins without a version are pinned as the version is made.
    const checked = await checkAgainstStore(ctx, id, body.content);
    if (!checked.ok) {
      const reasons = diagnosticsJson(checked.problems);
      return c.json({ status: 'refused' as const, reasons, impact: { widens_security: false, widened_subjects: [] } }, 422);
    }
    const outcome = await ctx.seam
      .submit({
        kind: 'document',
        document: id,
        content: checked.content,
        author: { kind: member.role === 'developer' ? 'developer' : 'person', label: member.name },
        reason: body.reason,
        ...(body.based_on !== undefined ? { basedOn: body.based_on } : {}),
      })
      .catch(storeError);
    const result = {
      status: outcome.status,
      ...(outcome.version ? { version: versionJson(outcome.version) } : {}),
      reasons: diagnosticsJson(outcome.version ? [...outcome.reasons, ...checked.notes.map(pinNote)] : outcome.reasons),
      impact: impactJson(outcome.impact),
    };
    if (outcome.version) ctx.events.publish({ type: 'document', id, sequence: outcome.version.sequence });
    if (outcome.retryAfterSeconds !== undefined) {
      return c.json(result, 503, { 'Retry-After': String(outcome.retryAfterSeconds) });
    }
    switch (outcome.status) {
      case 'applied':
      case 'saved_not_running':
        return c.json(result, 201);
      case 'conflict':
        return c.json(result, 409);
      case 'refused':
        return c.json(result, 422);
      case 'rejected':
        return c.json(result, 403);
    }
  });

  app.openapi(activateRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const { sequence } = c.req.valid('json');
    if (documentKindOf(id) === 'ruleset') await assertActivatable(ctx, id, sequence);
    if (documentKindOf(id) === 'policy') refuseUnknownApprovers(id, (await version(ctx, id, sequence)).text, ctx);
    const v = await ctx.store.activate(id, sequence).catch(storeError);
    ctx.events.publish({ type: 'document', id, sequence: v.sequence });
    return c.json({ id, version: versionJson(v) }, 200);
  });

  app.openapi(revertRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    if (documentKindOf(id) === 'ruleset' && (await lifecycleOf(ctx.store).statusOf(id)) === 'active') {
      // The version a revert lands on is known only once it is made: an active set moves by activating a
      // version, which checks its pins first.
      throw new ApiError(409, 'RULESET_REVERT_ACTIVE', `${id} is active: activate the version to run instead, so its pins are checked`);
    }
    const v = await ctx.store.revert(id).catch(storeError);
    ctx.events.publish({ type: 'document', id, sequence: v.sequence });
    return c.json({ id, version: versionJson(v) }, 200);
  });

  app.openapi(diffRoute, async (c) => {
    const ctx = c.get('ctx');
    const { id } = c.req.valid('param');
    const query = c.req.valid('query');
    const a = await version(ctx, id, sequenceOf(query.from));
    let b: StoredDocument | undefined;
    if (query.to === undefined) {
      b = await ctx.store.get(id).catch(storeError);
      if (!b) throw new ApiError(404, 'NOT_FOUND', `no version of ${id} runs; give to=`);
    } else {
      b = await version(ctx, id, sequenceOf(query.to));
    }
    const kind = documentKindOf(id);
    const impact = kind === undefined ? { widensSecurity: false, widenedSubjects: [] } : analyzeImpact(kind, a.text, b.text);
    const unified = createTwoFilesPatch(id, id, a.text, b.text, `version ${a.sequence}`, `version ${b.sequence}`);
    return c.json({ id, from: a.sequence, to: b.sequence, unified, impact: impactJson(impact) }, 200);
  });

  return app;
}
