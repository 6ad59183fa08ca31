// What the route modules share: the error body's schema, JSON response and request helpers, the member-role
// middleware, and a store refusal as an API error.
import { z } from '@hono/zod-openapi';
import { StoreError, type StoreErrorCode } from '@tollgate/store';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type Env, requireMember } from '../auth.ts';
import { MAX_ARGUMENTS_DEPTH, tooDeep } from '../call-request.ts';
import { ApiError } from '../errors.ts';
import type { MemberRow, Role } from '../state/members.ts';

export const ErrorSchema = z
  .object({ error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }) })
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
    .openapi({ type: 'integer', description: `1-${max}, default ${fallback}.` });

/** The `Location` header of a 201, for createRoute's responses: where what was made is read. */
export const LOCATION = {
  Location: { description: 'The path of what was made.', schema: { type: 'string' as const } },
};

/** A JSON response of `schema`, for createRoute's responses. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { 'application/json': { schema } },
  description,
});

/** A required JSON request body of `schema`, for createRoute's request. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { 'application/json': { schema } } });

/** The member behind a request that passed members(): the handler's view of who asks. */
export function memberOf(c: Context<Env>): MemberRow {
  return requireMember(c.get('principal'));
}

/** Route middleware: the principal must be a member, of one of `roles` when given (before any body is read). */
export function members(...roles: Role[]) {
  return createMiddleware<Env>(async function requireRole(c, next) {
    requireMember(c.get('principal'), ...roles);
    await next();
  });
}

const STORE_STATUS: Record<StoreErrorCode, ContentfulStatusCode> = {
  not_found: 404,
  invalid_id: 400,
  rejected_version: 409,
  nothing_to_revert: 409,
  conflict: 409,
  // Another process holds the store's lock past the wait: busy, not wrong; the client retries (docs/store.md).
  locked: 503,
  too_large: 413,
  invalid_save: 400,
  // A damaged version or index is refused, never replaced with a guess (docs/store.md, "Faults").
  damaged: 409,
  // The write's If-Match no longer names the newest version (docs/api.md, "Preconditions and paging").
  precondition_failed: 412,
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
  | 'template'
  | 'member'
  | 'decision'
  | 'catalogue'
  | 'tool';

/** 404 NOT_FOUND naming the kind of resource missing (docs/api.md, "One vocabulary"). */
export const notFound = (resource: Resource, message: string) => new ApiError(404, 'NOT_FOUND', message, { resource });

/** Seconds a client waits before retrying a write refused because the store was busy (`Retry-After`). */
export const STORE_RETRY_AFTER_SECONDS = 1;

/** A store refusal as an API error (nothing was written); anything else is a bug and stays one. */
export function storeError(err: unknown): never {
  if (err instanceof StoreError) {
    const headers = err.code === 'locked' ? { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) } : undefined;
    throw new ApiError(STORE_STATUS[err.code], err.code.toUpperCase(), err.message, err.details, headers);
  }
  throw err;
}
