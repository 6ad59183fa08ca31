// What the route modules share: the error body's schema, JSON response and request helpers, the member-role
// middleware, and a store refusal as an API error.
import { z } from '@hono/zod-openapi';
import { API_CODE_NAMES, type ApiCode } from '@tollgate/engine';
import { writeJson } from '@tollgate/engine/source';
import { StoreError, type StoreErrorCode } from '@tollgate/store';
import type { Context, TypedResponse } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONParsed } from 'hono/utils/types';
import { type Env, requireGrant, requireMember } from '../auth.ts';
import { MAX_ARGUMENTS_DEPTH, tooDeep } from '../call-request.ts';
import { DiagnosticSchema } from '../diagnostic-schema.ts';
import { ApiError } from '../errors.ts';
import type { Grant, MemberRow, Role } from '../state/members/model.ts';

/** One fault of a refused body, query or path: where (a JSON Pointer), the zod or reader code, and what. */
const IssueSchema = z
  .object({
    path: z.string(),
    code: z.string(),
    message: z.string(),
    line: z.number().int().min(1).optional(),
    column: z.number().int().min(1).optional(),
  })
  .openapi('Issue');

/** How a call arrived, in a decision and in the approval request of a held one (docs/mcp.md, "Calls marked as MCP"). */
export const CallVia = z.enum(['http', 'mcp']).openapi('CallVia', {
  description: 'How the call arrived: http for POST /v1/agents/{agent}/calls, mcp for a tools/call through the MCP gateway.',
});

/**
 * What an error carries besides its message, by code (docs/api.md): the issues of a refused request, the
 * problems behind a refusal, the kind of resource missing, the newest version, or where a body stops being
 * JSON; other members name what is at fault (rules, tools).
 */
const ErrorDetails = z
  .object({
    issues: z.array(IssueSchema).optional(),
    problems: z.array(DiagnosticSchema).optional(),
    errors: z.array(z.record(z.string(), z.unknown())).optional(),
    resource: z.string().optional(),
    current: z.number().int().min(0).optional(),
    line: z.number().int().min(1).optional(),
    column: z.number().int().min(1).optional(),
  })
  .catchall(z.unknown())
  .openapi('ErrorDetails');

/** The one error body: `{"error": {"code", "message", "details"?}}`, the code one of API_CODES. */
export const ErrorSchema = z
  .object({
    error: z.object({ code: z.enum(API_CODE_NAMES as [ApiCode, ...ApiCode[]]), message: z.string(), details: ErrorDetails.optional() }),
  })
  .openapi('Error');

/**
 * A call's arguments wherever a body carries them (a claim, a pasted or evaluated call, a rules check):
 * a JSON object nesting at most MAX_ARGUMENTS_DEPTH levels, the gate's own limit, refused with the same
 * issue (`too_deep`) the gate gives (call-request.ts).
 */
export const ArgumentsObject = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const path = tooDeep(value, MAX_ARGUMENTS_DEPTH);
  if (path) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: `Too deep: arguments nest at most ${MAX_ARGUMENTS_DEPTH} levels`,
      params: { code: 'too_deep' },
    });
  }
});

/** A `limit` query parameter: a whole number from 1 to `max`, `fallback` when absent (the route applies it). */
export const limitQuery = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^[0-9]+$/, 'limit is a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(max))
    .optional()
    .openapi({ type: 'integer', minimum: 1, maximum: max, default: fallback, description: `1-${max}, default ${fallback}.` });

/** The `Location` header of a 201, for createRoute's responses: where what was made is read. */
export const LOCATION = {
  Location: { description: 'The path of what was made.', schema: { type: 'string' as const } },
};

/** A required JSON request body of `schema`, for createRoute's request. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

/** createRoute's `request` for a required JSON body of `schema` (a body that is not JSON is refused, never read as {}). */
export const jsonRequest = <T extends z.ZodType>(schema: T) => ({ body: jsonBody(schema) });

/** A JSON response of `schema`, for createRoute's responses. */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

/** A JSON object the engine defines (a rulebook, an overlay, an explanation): described, not restated. */
export const EngineObject = (description: string) => z.record(z.string(), z.unknown()).openapi({ description });

/** An answer in the one error shape, for createRoute's responses. */
export const errorResponse = (description: string) => jsonResponse(ErrorSchema, description);

/** The 4xx answers routes share, for the OpenAPI description. */
export const ERRORS = {
  400: errorResponse('The body is not JSON or not of the documented shape (INVALID_BODY, with the zod issues).'),
  401: errorResponse('No key, or a key that is not known.'),
  403: errorResponse('The key lacks the role or grant.'),
} as const;

/** The member behind a request that passed members(): the handler's view of who asks. */
export function memberOf(c: Context<Env>): MemberRow {
  return requireMember(c.get('principal'));
}

/** The member behind a request and whether the key is a model's (the `model` grant): who authors an edit. */
export function editorOf(c: Context<Env>): MemberRow & { model: boolean } {
  return { ...memberOf(c), model: c.get('principal').grants.includes('model') };
}

/** Route middleware: the key must hold `grant` (after members(), so an agent's key is MEMBER_REQUIRED first). */
export function withGrant(grant: Grant) {
  return createMiddleware<Env>(async function requireKeyGrant(c, next) {
    requireGrant(c.get('principal'), grant);
    await next();
  });
}

/** Route middleware: the principal must be a member, of one of `roles` when given (before any body is read). */
export function members(...roles: Role[]) {
  return createMiddleware<Env>(async function requireRole(c, next) {
    requireMember(c.get('principal'), ...roles);
    await next();
  });
}

/**
 * Route middleware, after members(): the key must be a person's, not a model's (the `model` grant). Making a
 * version run is a person's to do, so a model's held edit runs only when a person activates it; and deciding a
 * held call is a person's, so a model never approves calls, its own agents' included.
 */
export function people(refusal = "a model's key cannot make a version run; a person activates it") {
  return createMiddleware<Env>(async function requirePerson(c, next) {
    if (c.get('principal').grants.includes('model')) throw new ApiError('PERSON_REQUIRED', refusal);
    await next();
  });
}

// The store's refusals in the API's vocabulary; each code's status is the registry's (API_CODES).
const STORE_CODES: Record<StoreErrorCode, ApiCode> = {
  not_found: 'NOT_FOUND',
  invalid_id: 'INVALID_ID',
  rejected_version: 'REJECTED_VERSION',
  nothing_to_revert: 'NOTHING_TO_REVERT',
  conflict: 'CONFLICT',
  // Another process holds the store's lock past the wait: busy, not wrong; the client retries (docs/store.md).
  locked: 'LOCKED',
  too_large: 'TOO_LARGE',
  invalid_save: 'INVALID_SAVE',
  // A damaged version or index is refused, never replaced with a guess (docs/store.md, "Faults").
  damaged: 'DAMAGED',
  // The write's If-Match no longer names the newest version (docs/api.md, "Preconditions and paging").
  precondition_failed: 'PRECONDITION_FAILED',
};

/** What a 404 NOT_FOUND says is missing, in its `details.resource`. */
export type Resource =
  | 'document'
  | 'version'
  | 'ruleset'
  | 'rule'
  | 'agent'
  | 'approval'
  | 'trial'
  | 'shadow'
  | 'template'
  | 'member'
  | 'key'
  | 'credential'
  | 'decision'
  | 'catalogue'
  | 'tool'
  | 'webhook';

/** 404 NOT_FOUND naming the kind of resource missing (docs/api.md, "One vocabulary"). */
export const notFound = (resource: Resource, message: string) => new ApiError('NOT_FOUND', message, { resource });

/** Seconds a client waits before retrying a write refused because the store was busy (`Retry-After`). */
export const STORE_RETRY_AFTER_SECONDS = 1;

/**
 * A store refusal as an API error (nothing was written); anything else is a bug and stays one. The one
 * mapping from the store's codes to HTTP (docs/api.md, "One vocabulary"): every route answers a store
 * refusal through it, `resource` naming what a not_found misses (a document unless given).
 *
 * @example
 * const doc = await ctx.store.get(id).catch((err) => storeError(err, 'document'));
 */
export function storeError(err: unknown, resource?: Resource): never {
  if (err instanceof StoreError) {
    const headers = err.code === 'locked' ? { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) } : undefined;
    // Every NOT_FOUND names what is missing: the store's not_found is of a document unless the caller says which.
    const details = err.code === 'not_found' ? { ...err.details, resource: resource ?? 'document' } : err.details;
    const code = STORE_CODES[err.code];
    throw new ApiError(code, err.message, details, headers);
  }
  throw err;
}

/** storeError for a promise's catch, naming what a not_found misses. */
export const storeErrorFor =
  (resource: Resource) =>
  (err: unknown): never =>
    storeError(err, resource);

/**
 * A JSON answer whose body may hold an agent's arguments: written with writeJson, so a number kept as
 * written is shown as written (c.json's JSON.stringify would refuse it).
 */
export function exactJson<T, S extends ContentfulStatusCode>(
  c: Context,
  body: T,
  status: S,
): Response & TypedResponse<JSONParsed<T>, S, 'json'> {
  const response: Response = c.body(writeJson(body), status, { 'content-type': 'application/json' });
  return response as Response & TypedResponse<JSONParsed<T>, S, 'json'>;
}
