// The document routes as OpenAPI operations (createRoute): path, roles, request and every answer.
import { createRoute, z } from '@hono/zod-openapi';
import { IfMatchHeader, withETag } from '../preconditions.ts';
import { ErrorSchema, errorResponse, jsonBody, jsonResponse, LOCATION, members, people } from '../route-kit.ts';
import {
  ActivateBody,
  DiffSchema,
  DocumentSchema,
  EditBody,
  errors,
  HistoryVersionSchema,
  IdParam,
  OutcomeSchema,
  SequenceText,
  SummarySchema,
  VersionResult,
} from './schemas.ts';

export const listRoute = createRoute({
  method: 'get',
  path: '/documents',
  tags: ['documents'],
  summary: 'Every document: kind, status, running sequence and problems',
  middleware: [members()] as const,
  responses: { 200: jsonResponse(z.object({ documents: z.array(SummarySchema) }), 'The documents'), ...errors },
});

export const getRoute = createRoute({
  method: 'get',
  path: '/documents/{id}',
  tags: ['documents'],
  summary: 'The running version of a document, with its text',
  middleware: [members()] as const,
  request: { params: z.object({ id: IdParam }) },
  responses: {
    200: withETag(jsonResponse(DocumentSchema, 'The running version')),
    ...errors,
    409: errorResponse("DAMAGED: the running version's file is damaged"),
  },
});

export const historyRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/history',
  tags: ['documents'],
  summary: 'Every stored version, oldest first, rejected ones included',
  middleware: [members()] as const,
  request: { params: z.object({ id: IdParam }) },
  responses: {
    200: withETag(
      jsonResponse(
        z.object({
          id: z.string(),
          versions: z.array(HistoryVersionSchema),
          revert_target: z
            .number()
            .int()
            .nullable()
            .openapi({ description: 'The version a revert would run now (the one that ran before the running one); null when none' }),
        }),
        'The versions',
      ),
    ),
    ...errors,
  },
});

export const versionRoute = createRoute({
  method: 'get',
  path: '/documents/{id}/versions/{sequence}',
  tags: ['documents'],
  summary: 'One stored version, with its text',
  middleware: [members()] as const,
  request: {
    params: z.object({ id: IdParam, sequence: SequenceText.openapi({ param: { name: 'sequence', in: 'path' }, example: '1' }) }),
  },
  responses: {
    200: withETag(jsonResponse(DocumentSchema, 'The version')),
    ...errors,
    409: errorResponse("DAMAGED: the version's file is damaged"),
  },
});

export const editRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/edits',
  tags: ['documents'],
  summary: 'Submits an edit through the edit seam (owner, admin or developer)',
  middleware: [members('owner', 'admin', 'developer')] as const,
  request: {
    params: z.object({ id: IdParam }),
    headers: IfMatchHeader,
    body: jsonBody(EditBody),
  },
  responses: {
    201: withETag(jsonResponse(OutcomeSchema, 'Stored: applied, or saved_not_running'), LOCATION),
    400: errors[400],
    401: errors[401],
    403: jsonResponse(
      z.union([OutcomeSchema, ErrorSchema]),
      "rejected by a writer (an outcome), or a lacking role (an error: ROLE_REQUIRED, BINDING_CHANGE_FORBIDDEN for a developer's edit that changes a tool's binding, or OWNER_REQUIRED for a settings edit that changes review_widening_edits)",
    ),
    409: withETag(jsonResponse(OutcomeSchema, 'conflict: the running version is no longer based_on; nothing stored')),
    412: errorResponse('PRECONDITION_FAILED: If-Match no longer names the newest version (details.current); nothing stored'),
    413: errorResponse(
      "TOO_LARGE: the body is over the edit route's transport limit (twice the document limit and 64 KiB), unread; nothing stored",
    ),
    428: errorResponse('PRECONDITION_REQUIRED: neither If-Match nor based_on was sent (or If-Match: *); nothing stored'),
    422: jsonResponse(
      OutcomeSchema,
      'refused: the content does not load, or is over the document limit (TOO_LARGE, refused unread); nothing stored',
    ),
    503: jsonResponse(
      OutcomeSchema,
      'refused: the store is busy (another process holds its lock); nothing stored; retry after Retry-After seconds',
    ),
  },
});

export const activateRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/activate',
  tags: ['documents'],
  summary: 'Runs a stored, loadable version (owner or admin)',
  middleware: [members('owner', 'admin'), people()] as const,
  request: {
    params: z.object({ id: IdParam }),
    headers: IfMatchHeader,
    body: jsonBody(ActivateBody),
  },
  responses: {
    200: withETag(jsonResponse(VersionResult, 'The version now running')),
    412: errorResponse('PRECONDITION_FAILED: If-Match no longer names the newest version (details.current); nothing changed'),
    ...errors,
    403: errorResponse(
      "A lacking role (ROLE_REQUIRED; OWNER_REQUIRED for a settings version that changes review_widening_edits), a model's key (PERSON_REQUIRED), or under four eyes the author of a version that widens what runs (SELF_REVIEW_FORBIDDEN, details.widened_subjects)",
    ),
    409: errorResponse(
      'A rejected version cannot run (REJECTED_VERSION), its file is damaged (DAMAGED), or a live gateway decides a lower policy language revision (GATEWAYS_NOT_UPGRADED, details.gateways)',
    ),
    422: errorResponse(
      "INVALID_POLICY: a policy version whose approvers.users are not the workspace's members able to approve (details.errors: UNKNOWN_APPROVER, APPROVER_ROLE_NOT_CAPABLE)",
    ),
    503: errorResponse('LOCKED: the store is busy; retry after Retry-After seconds'),
  },
});

export const revertRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/revert',
  tags: ['documents'],
  summary: 'Runs the version that ran before the current one (owner or admin)',
  middleware: [members('owner', 'admin'), people()] as const,
  request: { params: z.object({ id: IdParam }), headers: IfMatchHeader },
  responses: {
    200: withETag(jsonResponse(VersionResult, 'The version now running')),
    412: errorResponse('PRECONDITION_FAILED: If-Match no longer names the newest version (details.current); nothing changed'),
    ...errors,
    403: errorResponse(
      "A lacking role (ROLE_REQUIRED; OWNER_REQUIRED for a settings version that changes review_widening_edits), a model's key (PERSON_REQUIRED), or under four eyes the author of the version to return to when it widens what runs (SELF_REVIEW_FORBIDDEN)",
    ),
    409: errorResponse(
      'Nothing to revert to, the version to return to is damaged (DAMAGED), or a live gateway decides a lower policy language revision than it (GATEWAYS_NOT_UPGRADED)',
    ),
    503: errorResponse('LOCKED: the store is busy; retry after Retry-After seconds'),
  },
});

export const diffRoute = createRoute({
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
  responses: { 200: jsonResponse(DiffSchema, 'The diff'), ...errors, 409: errorResponse("DAMAGED: a version's file is damaged") },
});
