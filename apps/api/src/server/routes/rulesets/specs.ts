// The rule-set routes as OpenAPI operations (createRoute): path, roles, request and every answer.
import { createRoute, z } from '@hono/zod-openapi';
import type { Role } from '../../state/members/model.ts';
import { IfMatchHeader, withETag } from '../preconditions.ts';
import { errorResponse, jsonBody, jsonResponse, LOCATION, members, people } from '../route-kit.ts';
import {
  ArchiveBody,
  CreateBody,
  DocumentIdParam,
  errors,
  IdParam,
  LatestBody,
  ListQuery,
  RulesetSchema,
  RunSchema,
  Status,
  StatusBody,
  UpdateBody,
  ValidateBody,
  VersionQuery,
} from './schemas.ts';

/** Who changes a set's pins and metadata. */
export const AUTHORS: Role[] = ['owner', 'admin', 'developer'];
/** Who changes a set's or rule's status and which version runs. */
export const STEWARDS: Role[] = ['owner', 'admin'];

export const listRoute = createRoute({
  method: 'get',
  path: '/rulesets',
  tags: ['rulesets'],
  summary: 'The active rule sets (or those of ?status=), each at its active version, with newer-version flags per pin',
  middleware: [members()] as const,
  request: { query: ListQuery },
  responses: { 200: jsonResponse(z.object({ rulesets: z.array(RulesetSchema) }), 'The rule sets'), ...errors },
});

export const getRoute = createRoute({
  method: 'get',
  path: '/rulesets/{id}',
  tags: ['rulesets'],
  summary: 'A rule set at a version (the active one by default), its pins resolved',
  middleware: [members()] as const,
  request: { params: z.object({ id: IdParam }), query: VersionQuery },
  responses: { 200: withETag(jsonResponse(RulesetSchema, 'The rule set')), ...errors },
});

export const createRulesetRoute = createRoute({
  method: 'post',
  path: '/rulesets',
  tags: ['rulesets'],
  summary: 'Creates a rule set, as a draft (owner, admin or developer)',
  middleware: [members(...AUTHORS)] as const,
  request: { body: jsonBody(CreateBody) },
  responses: { 201: withETag(jsonResponse(RulesetSchema, 'The new rule set, version 1, draft'), LOCATION), ...errors },
});

export const updateRoute = createRoute({
  method: 'patch',
  path: '/rulesets/{id}',
  tags: ['rulesets'],
  summary: 'New pins save the next version as a draft; status, metadata or the active version change without one',
  middleware: [members(...AUTHORS)] as const,
  request: { params: z.object({ id: IdParam }), headers: IfMatchHeader, body: jsonBody(UpdateBody) },
  responses: {
    200: withETag(jsonResponse(RulesetSchema, 'The rule set after the change')),
    ...errors,
    412: errorResponse('PRECONDITION_FAILED: If-Match (or based_on) no longer names the newest version (details.current)'),
    428: errorResponse('PRECONDITION_REQUIRED: neither If-Match nor based_on was sent (or If-Match: *)'),
  },
});

export const latestRoute = createRoute({
  method: 'post',
  path: '/rulesets/{id}/update-to-latest',
  tags: ['rulesets'],
  summary: 'Re-pins one, several or all rules to their running versions, as the next version in draft',
  middleware: [members(...AUTHORS)] as const,
  request: { params: z.object({ id: IdParam }), body: jsonBody(LatestBody) },
  responses: { 200: withETag(jsonResponse(RulesetSchema, 'The new draft version')), ...errors },
});

export const archiveRoute = createRoute({
  method: 'post',
  path: '/rulesets/{id}/archive',
  tags: ['rulesets'],
  summary: 'Archives a rule set, naming a replacement agents are pointed at (owner or admin)',
  middleware: [members(...STEWARDS), people()] as const,
  request: { params: z.object({ id: IdParam }), body: jsonBody(ArchiveBody) },
  responses: { 200: withETag(jsonResponse(RulesetSchema, 'The archived set')), ...errors },
});

export const restoreRoute = createRoute({
  method: 'post',
  path: '/rulesets/{id}/restore',
  tags: ['rulesets'],
  summary: 'Restores an archived rule set to the status it had (owner or admin)',
  middleware: [members(...STEWARDS), people()] as const,
  request: { params: z.object({ id: IdParam }) },
  responses: { 200: withETag(jsonResponse(RulesetSchema, 'The restored set')), ...errors },
});

export const validateRoute = createRoute({
  method: 'post',
  path: '/rulesets/{id}/validate',
  tags: ['rulesets'],
  summary: 'Runs a rule set (the active version, or version_id) against one call; every rule judged in parallel',
  middleware: [members()] as const,
  request: { params: z.object({ id: IdParam }), body: jsonBody(ValidateBody) },
  responses: {
    200: jsonResponse(RunSchema, "The set's verdict, the rules that failed, and each rule's own result"),
    ...errors,
    503: errorResponse('RULESET_RUN_FAILED: a rule threw or gave no answer in time; nothing was recorded'),
  },
});

export const statusRoute = createRoute({
  method: 'post',
  path: '/documents/{id}/status',
  tags: ['rulesets'],
  summary: "Sets a rule document's status: draft, test, active, disabled or archived (owner or admin)",
  middleware: [members(...STEWARDS), people()] as const,
  request: { params: z.object({ id: DocumentIdParam }), body: jsonBody(StatusBody) },
  responses: { 200: jsonResponse(z.object({ id: z.string(), status: Status }), 'The status now'), ...errors },
});
