// The rule-set routes' zod schemas (request and response bodies, path and query parameters), as
// /v1/openapi.json describes them.
import { z } from '@hono/zod-openapi';
import { RULE_STATUSES } from '@tollgate/engine';
import { documentIdParam } from '../path-params.ts';
import { ArgumentsObject, errorResponse } from '../route-kit.ts';

export const IdParam = documentIdParam(
  { name: 'id', description: 'The rule set id', example: 'rulesets/support.ruleset.json' },
  ['ruleset'],
  'a rule set id (rulesets/<name>.ruleset.json)',
);
export const DocumentIdParam = documentIdParam(
  { name: 'id', description: 'A policy, sheet or Colang id', example: 'policies/refunds.policy.json' },
  ['policy', 'sheet', 'colang'],
  'a rule document id (a policy, sheet or Colang file); rule sets change status through /v1/rulesets',
);
export const VersionQuery = z.object({
  version_id: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, 'expected a positive integer')
    .optional()
    .openapi({
      param: { name: 'version_id', in: 'query' },
      type: 'integer',
      minimum: 1,
      description: 'A rule-set version; the active one when left out',
    }),
});

export const Status = z.enum(RULE_STATUSES);
export const ListQuery = z.object({
  status: z
    .enum([...RULE_STATUSES, 'all'])
    .optional()
    .openapi({
      param: { name: 'status', in: 'query' },
      description: 'The sets of one status, or all of them; active sets when left out (docs/rulesets.md)',
    }),
});
export const PinBody = z.object({ rule_id: z.string().min(1).max(1024), version_id: z.number().int().min(1).optional() }).strict();
export const Tags = z.array(z.string()).max(32);

export const PinSchema = z
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

export const RulesetSchema = z
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
        created_at: z.iso.datetime({ offset: true }),
        active: z.boolean(),
        draft: z.boolean(),
      }),
    ),
  })
  .openapi('Ruleset');

export const CreateBody = z
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

export const UpdateBody = z
  .object({
    pins: z.array(PinBody).optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    tags: Tags.optional(),
    status: Status.optional(),
    replaced_by: z.string().min(1).max(1024).optional(),
    active_version: z.number().int().min(1).optional(),
    reason: z.string().min(1).max(2000).optional(),
    based_on: z.number().int().min(1).optional().openapi({
      description: 'The newest version the change was made from (the ETag read), when If-Match is not sent',
    }),
  })
  .strict()
  .openapi('RulesetUpdate');

export const LatestBody = z
  .object({
    rule_ids: z.array(z.string()).optional().openapi({ description: 'The pins to move; every pin with a newer version when left out' }),
    reason: z.string().min(1).max(2000).optional(),
  })
  .strict()
  .openapi('RulesetUpdateToLatest');

export const ArchiveBody = z
  .object({ replaced_by: z.string().min(1).max(1024).optional(), reason: z.string().min(1).max(2000).optional() })
  .strict()
  .openapi('RulesetArchive');

export const CallBody = z
  .object({
    tool: z.string().min(1).max(256),
    arguments: ArgumentsObject,
    history: z
      .array(
        z.object({
          tool: z.string(),
          arguments: ArgumentsObject.optional(),
          result: z.unknown().optional().openapi({ description: "The earlier call's result: any JSON value" }),
        }),
      )
      .optional(),
    contexts: z.record(z.string(), z.unknown()).optional(),
    confirmed: z.boolean().optional(),
  })
  .strict();
export const ValidateBody = z
  .object({ call: CallBody, version_id: z.number().int().min(1).optional() })
  .strict()
  .openapi('RulesetValidate');

export const RunSchema = z
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

export const StatusBody = z.object({ status: Status }).strict().openapi('RuleStatusChange');

export const errors = {
  400: errorResponse('The request is not valid'),
  401: errorResponse('A missing or unknown key'),
  403: errorResponse('A lacking role'),
  404: errorResponse('No such rule set or version'),
  409: errorResponse(
    'The change conflicts with the set’s state (archived, pins a draft rule, nothing to update), or would make a policy run that a live gateway cannot decide (GATEWAYS_NOT_UPGRADED)',
  ),
  422: errorResponse('RULESET_REFUSED: the pins are refused; details name every rule at fault'),
};
