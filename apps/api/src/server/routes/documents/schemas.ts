// The document routes' zod schemas (request and response bodies, path and query parameters), as
// /v1/openapi.json describes them.
import { z } from '@hono/zod-openapi';
import { DiagnosticSchema } from '../../diagnostic-schema.ts';
import { documentIdParam } from '../path-params.ts';
import { ImpactPreviewSchema } from '../review-schemas.ts';
import { errorResponse } from '../route-kit.ts';

export const IdParam = documentIdParam({ name: 'id', description: 'The document id', example: 'policies/refunds.policy.json' });

export const SEQUENCE = /^[1-9][0-9]{0,8}$/;
export const SequenceText = z
  .string()
  .regex(SEQUENCE, 'expected a positive integer')
  .openapi({ type: 'integer', minimum: 1, maximum: 999_999_999 });

export const AuthorSchema = z.object({
  kind: z.enum(['person', 'developer', 'model', 'external', 'system']),
  label: z.string(),
});

export const VersionSchema = z
  .object({
    sequence: z.number().int(),
    author: AuthorSchema,
    reason: z.string(),
    based_on: z.number().int().nullable(),
    created_at: z.iso.datetime({ offset: true }),
    running: z.boolean(),
    rejected: z.boolean(),
    problems: z.array(z.string()),
    digest: z.string(),
    bytes: z.number().int(),
  })
  .openapi('DocumentVersion');

export const HistoryVersionSchema = VersionSchema.extend({
  activated_by: z
    .object({
      id: z.string().openapi({ description: "The member's id" }),
      name: z.string().openapi({ description: "The member's name (an author's label names the same member)" }),
      at: z.iso.datetime({ offset: true }),
    })
    .nullable()
    .openapi({
      description:
        'The member who last made this version run (activate, revert, a rule set’s active version); null when none did through the API, such as an edit that applied as it was saved (docs/security.md, "Four eyes")',
    }),
}).openapi('DocumentHistoryVersion');

export const ImpactSchema = z
  .object({
    widens_security: z.boolean(),
    widened_subjects: z.array(z.string()),
    changes: z
      .array(z.string())
      .optional()
      .openapi({
        description:
          "Policies: every region of calls whose decision changes, narrowing ones too, in the decision diff's words (docs/review.md)",
        example: ['refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)'],
      }),
  })
  .openapi('EditImpact');

export const ProblemSchema = z
  .object({
    source: z.enum(['store', 'version', 'document']),
    code: z.string(),
    severity: z.enum(['error', 'warning', 'info']),
    message: z.string(),
    line: z.number().int().optional(),
    path: z.string().optional(),
  })
  .openapi('DocumentProblem');

export const STATUSES = ['running', 'newer_rejected', 'newer_not_running', 'rejected_only', 'not_loaded', 'not_running'] as const;
export type DocumentStatus = (typeof STATUSES)[number];

export const SummarySchema = z
  .object({
    id: z.string(),
    kind: z.string().nullable(),
    status: z.enum(STATUSES).openapi({
      description:
        'running: the newest version runs; newer_rejected: a newer working copy did not load and an older version runs; newer_not_running: a newer version is stored as a candidate; rejected_only: no version loads; not_loaded: the store could not read it; not_running: versions are stored (a draft, such as an import’s), none rejected, and none runs yet',
    }),
    running_sequence: z.number().int().nullable(),
    versions: z.number().int(),
    problems: z.array(ProblemSchema),
  })
  .openapi('DocumentSummary');

export const DocumentSchema = z
  .object({ id: z.string(), kind: z.string().nullable(), version: VersionSchema, text: z.string() })
  .openapi('Document');

export const OutcomeSchema = z
  .object({
    status: z.enum(['applied', 'saved_not_running', 'refused', 'rejected', 'conflict']),
    version: VersionSchema.optional(),
    held_for_review: z.literal(true).optional().openapi({
      description:
        'Present on a stored version held for review (reason HELD_FOR_REVIEW): a model’s edit, a rule set’s draft, or under four eyes (review_widening_edits) an edit that widens what runs, which another member than its author activates; `impact` says what it widens (docs/security.md, "Four eyes")',
    }),
    reasons: z.array(DiagnosticSchema),
    impact: ImpactSchema,
    preview: ImpactPreviewSchema.omit({ candidate: true }).optional().openapi({
      description:
        "On a conflict of a policy edit: the impact preview of the edit's text against the version that runs now (`running`), per catalogue of the agents that use the policy (docs/review.md)",
    }),
  })
  .openapi('EditOutcome');

export const EditBody = z
  .object({
    content: z.string(),
    reason: z.string().min(1).max(2000),
    based_on: z.number().int().min(1).nullable().optional().openapi({
      description:
        'The running version the content was written from (null: no version yet); checked with the write (409 conflict). An edit sends this, If-Match, or both naming the same version (docs/api.md, "Preconditions and paging")',
    }),
  })
  .strict()
  .openapi('DocumentEdit');

export const ActivateBody = z
  .object({ sequence: z.number().int().min(1) })
  .strict()
  .openapi('DocumentActivate');

export const VersionResult = z.object({ id: z.string(), version: VersionSchema }).openapi('DocumentVersionResult');

export const DiffSchema = z
  .object({ id: z.string(), from: z.number().int(), to: z.number().int(), unified: z.string(), impact: ImpactSchema })
  .openapi('DocumentDiff');

export const errors = {
  400: errorResponse('The request is not valid'),
  401: errorResponse('A missing or unknown key'),
  403: errorResponse('A lacking role'),
  404: errorResponse('No such document or version'),
};
