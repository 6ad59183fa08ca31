// The review routes' zod schemas: decision maps and impact previews as /v1/openapi.json describes them
// (review/answers.ts writes them; docs/review.md says what each field means).
import { z } from '@hono/zod-openapi';

const Decision = z.enum(['allow', 'require_approval', 'deny']);

export const IntervalSchema = z
  .object({
    lo: z.string().nullable().openapi({ description: 'The lower end (a decimal); null is minus infinity' }),
    lo_inclusive: z.boolean(),
    hi: z.string().nullable().openapi({ description: 'The upper end (a decimal); null is infinity' }),
    hi_inclusive: z.boolean(),
    words: z.string().openapi({ example: '(100, 250]' }),
  })
  .openapi('AmountInterval');

export const OutcomeSchema = z
  .object({
    decision: Decision,
    rule: z.string().nullable().openapi({ description: "The deciding rule's id, or null when a code decided" }),
    code: z.string().nullable().openapi({ description: 'DEFAULT, NO_ELIGIBLE_APPROVER, ... when no rule decided alone' }),
    approvers: z
      .object({ roles: z.array(z.string()), users: z.array(z.string()) })
      .optional()
      .openapi({ description: 'For a held call: the roles and users the deciding rule names' }),
    eligible: z.array(z.string()).optional().openapi({ description: "For a held call: the workspace's eligible members' ids" }),
    fail_closed: z.boolean().openapi({ description: 'The rule matched only because the amount or an argument could not be read' }),
  })
  .openapi('ReviewOutcome');

const DependsSchema = z.object({ rules: z.array(z.string()), reason: z.string() });

export const ToolDecisionSchema = z
  .object({
    tool: z.string(),
    action: z.string(),
    decision: z.enum(['allow', 'require_approval', 'deny', 'depends_on_amount', 'depends_on_arguments']),
    outcome: OutcomeSchema.optional().openapi({ description: 'The outcome of every call, when there is one' }),
    bands: z
      .array(
        z.object({
          amount: IntervalSchema.nullable().openapi({ description: 'null: calls without an amount' }),
          outcome: OutcomeSchema.optional(),
          depends_on_arguments: DependsSchema.optional(),
        }),
      )
      .optional(),
    rules: z
      .array(z.string())
      .optional()
      .openapi({ description: 'depends_on_arguments: the rules whose argument conditions are involved' }),
    reason: z.string().optional(),
    words: z.string().openapi({ example: 'read_customer (customers.read): deny (DEFAULT)' }),
  })
  .openapi('ToolDecision');

const RegionSchema = z.object({
  amount: IntervalSchema.nullable().openapi({ description: 'null: calls without an amount' }),
  currency: z.string().nullable().openapi({ description: "The tool's currency; null when no rule tests its amounts (any amount)" }),
  arguments: z.array(
    z.object({
      path: z.string(),
      words: z.string(),
      any_of: z
        .array(
          z.array(
            z.object({
              op: z.enum(['eq', 'in', 'starts_with', 'gt', 'gte', 'lt', 'lte', 'range']),
              operand: z
                .unknown()
                .openapi({ description: "The condition's operand; for range, its bounds ({gt|gte, lt|lte}) as decimal strings" }),
              result: z.enum(['true', 'false', 'unknown']),
            }),
          ),
        )
        .openapi({
          description:
            'The constraint as data: the value at path lies in the region when, for one alternative, every condition on the path gives its result (unknown: missing, another type, or not a well-formed decimal)',
        }),
    }),
  ),
});

const SubjectSchema = z.object({ label: z.string(), alike: z.array(z.string()).optional() });

export const DiffEntrySchema = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('change'),
      subject: SubjectSchema,
      region: RegionSchema,
      from: OutcomeSchema,
      to: OutcomeSchema,
      direction: z.enum(['widens', 'narrows', 'changes']),
      witness: z.object({
        tool: z.string(),
        binding: z
          .object({
            name: z.string(),
            action: z.string(),
            amount: z.object({ pointer: z.string(), currency: z.string(), currency_pointer: z.string().optional() }).optional(),
          })
          .openapi({ description: 'The tool binding the witness was decided with, so the call can be replayed' }),
        arguments: z.string().openapi({ description: 'A call in the region, as JSON text (numbers kept as written)' }),
      }),
      words: z.string().openapi({ example: 'issue_refund (refund.issue), amount in (100, 250] USD: allow -> require approval (narrows)' }),
    }),
    z.object({
      kind: z.literal('depends_on_arguments'),
      subject: SubjectSchema,
      region: RegionSchema,
      rules: z.array(z.string()),
      reason: z.string(),
      words: z.string(),
    }),
  ])
  .openapi('DecisionDiffEntry');

export const DecisionDiffSchema = z
  .object({
    entries: z.array(DiffEntrySchema),
    widens: z.boolean(),
    narrows: z.boolean(),
    depends: z.boolean().openapi({ description: 'Some region may change and cannot be decided without the arguments' }),
  })
  .openapi('DecisionDiff');

const Source = z.enum(['agents', 'workspace']).openapi({
  description: "agents: the catalogues of the agents that use the policy; workspace: no agent uses it, so the workspace's catalogue",
});

export const AgentMapSchema = z
  .object({
    agent: z.string(),
    catalogue: z.string(),
    policies: z.array(z.object({ document: z.string(), version: z.number().int(), tools: z.array(ToolDecisionSchema) })),
  })
  .openapi('AgentDecisionMap');

export const DocumentMapSchema = z
  .object({
    id: z.string(),
    version: z.number().int(),
    source: Source,
    catalogues: z.array(z.object({ id: z.string(), agents: z.array(z.string()), tools: z.array(ToolDecisionSchema) })),
  })
  .openapi('DocumentDecisionMap');

const ToolImpactSchema = z.object({
  tool: z.string(),
  action: z.string(),
  running: ToolDecisionSchema,
  candidate: ToolDecisionSchema,
  changes: z.array(DiffEntrySchema),
});

export const ImpactPreviewSchema = z
  .object({
    id: z.string(),
    running: z.number().int(),
    candidate: z.number().int(),
    source: Source,
    catalogues: z.array(
      z.object({
        id: z.string(),
        agents: z.array(z.string()),
        tools: z.array(ToolImpactSchema).openapi({ description: 'The tools some call of which changes decision (or may)' }),
        unchanged: z.array(z.string()),
      }),
    ),
    widens: z.boolean(),
    narrows: z.boolean(),
    depends: z.boolean().openapi({ description: 'Some region may change and cannot be decided without the arguments' }),
  })
  .openapi('ImpactPreview');
