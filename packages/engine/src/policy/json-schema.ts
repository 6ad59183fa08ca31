// policy@1 as a JSON Schema (draft-07), for editors' completion and hover. validatePolicy stays the truth:
// the schema only describes the shape, reusing the validator's limits and patterns so the two cannot drift.
import { BOUND_MEMBERS } from '../conditions/bounds.ts';
import { MAX_POINTER_LENGTH, OPERATOR_FAMILIES } from '../conditions/condition.ts';
import { MAX_DECIMAL_DIGITS } from '../conditions/decimal.ts';
import { MAX_IN_ITEMS } from '../conditions/in.ts';
import { MAX_PREFIXES } from '../conditions/starts-with.ts';
import { MAX_PATTERN_LENGTH } from './pattern.ts';
import { CURRENCY, TOOL_NAME } from './tool.ts';
import { APPROVER_ROLES, POLICY_SCHEMAS } from './types.ts';
import { MAX_ACTIONS, MAX_CONDITIONS, MAX_DESCRIPTION, MAX_RULES, MAX_TOOLS, MAX_TTL_SECONDS, MIN_TTL_SECONDS } from './validate.ts';
import { MAX_APPROVER_USERS, MAX_QUORUM, USER_ID } from './validate-approvers.ts';

/** The schema's id; editors associate it with `*.policy.json` models. */
export const POLICY_JSON_SCHEMA_URI = 'https://tollgate.dev/schemas/policy@1.json';

/** A JSON Schema node, as much of draft-07 as the policy schema uses. */
export interface JsonSchema {
  $schema?: string;
  $id?: string;
  $ref?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  enum?: readonly unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  not?: JsonSchema;
  if?: JsonSchema;
  then?: JsonSchema;
  else?: JsonSchema;
  definitions?: Record<string, JsonSchema>;
  defaultSnippets?: { label: string; description?: string; body: unknown }[];
}

const EFFECTS = ['allow', 'require_approval', 'deny'] as const;
const digits = `(?:0|[1-9][0-9]{0,${MAX_DECIMAL_DIGITS - 1}})(?:\\.[0-9]{1,${MAX_DECIMAL_DIGITS}})?`;
const UNSIGNED_DECIMAL = `^${digits}$`;
const SIGNED_DECIMAL = `^-?${digits}$`;
// isActionPattern: dot-separated segments with an optional final `*`, or `*` alone.
const ACTION_PATTERN = '^(?:\\*|[a-z0-9_-]+(?:\\.[a-z0-9_-]+)*(?:\\.\\*)?)$';
const ref = (name: string): JsonSchema => ({ $ref: `#/definitions/${name}` });

function bounds(pattern: string, example: string): Record<string, JsonSchema> {
  const what = { gt: 'greater than', gte: 'at least', lt: 'less than', lte: 'at most' };
  return Object.fromEntries(
    BOUND_MEMBERS.map((name) => [
      name,
      { type: 'string', pattern, description: `${what[name]} this decimal string, such as "${example}"; combinable with the other bounds` },
    ]),
  );
}

const scalar: JsonSchema = {
  type: ['string', 'integer', 'boolean', 'null'],
  description: 'a JSON scalar: string, safe integer, true, false or null',
};
const operatorDescriptions: Record<string, JsonSchema> = {
  eq: { ...scalar, description: 'true when the value is this scalar, of the same type ("5" never equals 5)' },
  in: {
    type: 'array',
    items: scalar,
    minItems: 1,
    maxItems: MAX_IN_ITEMS,
    uniqueItems: true,
    description: `true when the value is one of these 1-${MAX_IN_ITEMS} distinct scalars`,
  },
  starts_with: {
    type: 'array',
    items: { type: 'string', minLength: 1 },
    minItems: 1,
    maxItems: MAX_PREFIXES,
    uniqueItems: true,
    description: `true when the value is a string starting with one of these 1-${MAX_PREFIXES} prefixes`,
  },
  ...bounds(SIGNED_DECIMAL, '-5'),
};

/** Every operator member a condition may have, in the validator's family order. */
const operatorMembers = OPERATOR_FAMILIES.flatMap((family) => family.members);

/**
 * The JSON Schema of a policy@1 document, with a description on every member for hover.
 *
 * @example
 * jsonDefaults.setDiagnosticsOptions({ schemas: [{ uri: POLICY_JSON_SCHEMA_URI, fileMatch: ['*.policy.json'], schema: POLICY_JSON_SCHEMA }] })
 */
export const POLICY_JSON_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: POLICY_JSON_SCHEMA_URI,
  title: 'Tollgate policy document (policy@1)',
  description: 'Decides every call an agent makes through a tool: allow, require_approval or deny (docs/policy.md).',
  type: 'object',
  additionalProperties: false,
  required: ['schema', 'default', 'rules'],
  properties: {
    schema: { enum: [...POLICY_SCHEMAS], description: `the format: "${POLICY_SCHEMAS[0]}" (or the seed's synonym "${POLICY_SCHEMAS[1]}")` },
    default: {
      enum: ['deny', 'require_approval'],
      description: 'what decides a call no rule matches; a permissive default is refused (PERMISSIVE_DEFAULT)',
    },
    rules: {
      type: 'array',
      maxItems: MAX_RULES,
      items: ref('rule'),
      description: `at most ${MAX_RULES} rules; the most restrictive matching effect wins, document order breaks ties`,
    },
  },
  definitions: {
    rule: {
      type: 'object',
      additionalProperties: false,
      required: ['id', 'actions', 'effect'],
      description: 'a rule: which calls it matches (actions, tools, amount, when) and its effect',
      properties: {
        id: { type: 'string', pattern: '^[a-z0-9-]{1,64}$', description: 'unique in the document; 1-64 lowercase letters, digits and -' },
        description: {
          type: 'string',
          minLength: 1,
          maxLength: MAX_DESCRIPTION,
          description: `a human reason shown in explanations, 1-${MAX_DESCRIPTION} characters (makes the document revision 2); never a secret`,
        },
        actions: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_ACTIONS,
          uniqueItems: true,
          items: {
            type: 'string',
            pattern: ACTION_PATTERN,
            maxLength: MAX_PATTERN_LENGTH,
            description: 'an action such as "refund.issue", a final * such as "payouts.*" (one or more segments), or * alone',
          },
          description: `1-${MAX_ACTIONS} action patterns; the rule matches a call whose action one of them matches`,
        },
        tools: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_TOOLS,
          uniqueItems: true,
          items: { type: 'string', pattern: TOOL_NAME.source, description: 'an exposed tool name' },
          description: `1-${MAX_TOOLS} exposed tool names; when present, the call's tool must be listed`,
        },
        amount: ref('amount'),
        when: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_CONDITIONS,
          items: ref('condition'),
          description: `1-${MAX_CONDITIONS} argument conditions, all of which must hold (makes the document revision 3)`,
        },
        effect: {
          enum: [...EFFECTS],
          description: 'allow, require_approval (held for a person) or deny; among matching rules the most restrictive wins',
        },
        approvers: ref('approvers'),
        approval_ttl_seconds: {
          type: 'integer',
          minimum: MIN_TTL_SECONDS,
          maximum: MAX_TTL_SECONDS,
          description: `require_approval only: how long a request stays open, ${MIN_TTL_SECONDS} to ${MAX_TTL_SECONDS} seconds (30 days)`,
        },
        guard: {
          type: 'boolean',
          description: 'require_approval only: true marks a rule an observe window never relaxes (makes the document revision 2)',
        },
      },
      // approvers are required on a require_approval rule and refused on the others, as are its TTL and guard.
      if: { properties: { effect: { const: 'require_approval' } }, required: ['effect'] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keyword, never awaited
      then: { required: ['approvers'] },
      else: { not: { anyOf: [{ required: ['approvers'] }, { required: ['approval_ttl_seconds'] }, { required: ['guard'] }] } },
      defaultSnippets: [
        { label: 'allow rule', body: { id: '$1', actions: ['$2'], effect: 'allow' } },
        {
          label: 'require_approval rule',
          body: { id: '$1', actions: ['$2'], effect: 'require_approval', approvers: { roles: ['owner', 'admin', 'approver'] } },
        },
      ],
    },
    amount: {
      type: 'object',
      additionalProperties: false,
      required: ['currency'],
      description:
        "the call's amount (read through the tool's amount mapping) in this currency satisfies every bound; a missing amount fails closed",
      properties: {
        currency: { type: 'string', pattern: CURRENCY.source, description: 'an ISO 4217 code of three uppercase letters, such as USD' },
        ...bounds(UNSIGNED_DECIMAL, '100'),
      },
    },
    condition: {
      type: 'object',
      additionalProperties: false,
      required: ['path'],
      description: 'an argument condition: a JSON Pointer and exactly one operator family (eq, in, starts_with, or gt/gte/lt/lte)',
      properties: {
        path: {
          type: 'string',
          pattern: '^/',
          maxLength: MAX_POINTER_LENGTH,
          description: 'an RFC 6901 pointer into the arguments, such as "/environment"; a * token selects every array element',
        },
        for: { enum: ['all', 'any'], description: 'with a * in the path: every selected element must hold (all), or one (any)' },
        ...Object.fromEntries(operatorMembers.map((member) => [member, operatorDescriptions[member] ?? {}])),
      },
    },
    approvers: {
      type: 'object',
      additionalProperties: false,
      anyOf: [{ required: ['roles'] }, { required: ['users'] }],
      description: 'require_approval only, and required there: who may approve, by role or by member ID',
      properties: {
        roles: {
          type: 'array',
          minItems: 1,
          maxItems: APPROVER_ROLES.length,
          uniqueItems: true,
          items: { enum: [...APPROVER_ROLES] },
          description: `roles able to approve: ${APPROVER_ROLES.join(', ')}`,
        },
        users: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_APPROVER_USERS,
          uniqueItems: true,
          items: { type: 'string', pattern: USER_ID.source, description: "a member's ID (a lowercase UUID)" },
          description: `1-${MAX_APPROVER_USERS} member IDs able to approve`,
        },
        quorum: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_QUORUM,
          description: `how many distinct eligible members must approve, 1 to ${MAX_QUORUM} (makes the document revision 4)`,
        },
      },
    },
  },
};
