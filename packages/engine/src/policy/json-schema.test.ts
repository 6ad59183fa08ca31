// POLICY_JSON_SCHEMA against the validator: templates and the example document fit it, UNKNOWN_MEMBER
// documents do not, and each object's members are exactly those the validator knows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type JsonSchema, POLICY_JSON_SCHEMA } from './json-schema.ts';
import { createFromTemplate, listTemplates } from './templates/index.ts';
import { validatePolicy } from './validate.ts';

/** A small draft-07 check covering the keywords the policy schema uses; answers the failing paths. */
function schemaErrors(value: unknown, schema: JsonSchema = POLICY_JSON_SCHEMA, path = ''): string[] {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.replace('#/definitions/', '');
    return schemaErrors(value, POLICY_JSON_SCHEMA.definitions?.[name] as JsonSchema, path);
  }
  const errors: string[] = [];
  const fail = (why: string) => errors.push(`${path || '/'}: ${why}`);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((t) => hasType(value, t))) fail(`not ${types.join('|')}`);
  }
  if (schema.enum !== undefined && !schema.enum.includes(value as never)) fail('not in enum');
  if (schema.const !== undefined && schema.const !== value) fail('not the const');
  if (typeof value === 'string') {
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) fail(`does not match ${schema.pattern}`);
    if (schema.minLength !== undefined && value.length < schema.minLength) fail('too short');
    if (schema.maxLength !== undefined && value.length > schema.maxLength) fail('too long');
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) fail('below minimum');
    if (schema.maximum !== undefined && value > schema.maximum) fail('above maximum');
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) fail('too few items');
    if (schema.maxItems !== undefined && value.length > schema.maxItems) fail('too many items');
    if (schema.uniqueItems && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) fail('items not unique');
    if (schema.items !== undefined) {
      value.forEach((item, i) => {
        errors.push(...schemaErrors(item, schema.items, `${path}/${i}`));
      });
    }
  }
  if (isObject(value)) {
    for (const name of schema.required ?? []) if (!(name in value)) fail(`missing ${name}`);
    for (const [name, member] of Object.entries(value)) {
      const sub = schema.properties?.[name];
      if (sub !== undefined) errors.push(...schemaErrors(member, sub, `${path}/${name}`));
      else if (schema.additionalProperties === false) fail(`unknown member ${name}`);
    }
  }
  if (schema.anyOf !== undefined && !schema.anyOf.some((s) => schemaErrors(value, s, path).length === 0)) fail('no anyOf branch holds');
  if (schema.not !== undefined && schemaErrors(value, schema.not, path).length === 0) fail('the not schema holds');
  if (schema.if !== undefined) {
    const branch = schemaErrors(value, schema.if, path).length === 0 ? schema.then : schema.else;
    if (branch !== undefined) errors.push(...schemaErrors(value, branch, path));
  }
  return errors;
}

function hasType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'null') return value === null;
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isObject(value);
  return typeof value === type;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const refunds = JSON.parse(readFileSync(new URL('../../../../examples/refunds.policy.json', import.meta.url), 'utf8'));

/** A valid document reaching every object the schema describes: rule, amount, condition, approvers. */
const everyLevel = {
  schema: 'tollgate/policy@1',
  default: 'deny',
  rules: [
    {
      id: 'deploy-prod',
      description: 'Production deploys wait for a person.',
      actions: ['deploy.*'],
      tools: ['deploy_service'],
      amount: { currency: 'USD', gt: '0', lte: '99.50' },
      when: [
        { path: '/environment', eq: 'production' },
        { path: '/lines/*/qty', for: 'all', gt: '-1', lte: '500' },
        { path: '/region', in: ['eu', 'us', 1, null] },
        { path: '/branch', starts_with: ['release/'] },
      ],
      effect: 'require_approval',
      approvers: { roles: ['owner', 'admin'], users: ['0b0e6c1e-6f7a-4b8e-9d2a-1c3e5f7a9b0d'] },
      approval_ttl_seconds: 3600,
      guard: true,
    },
  ],
};

/** Where each described object sits in `everyLevel`, and the schema definition that describes it. */
const LEVELS: { name: string; at: (d: typeof everyLevel) => Record<string, unknown>; path: string; schema: JsonSchema }[] = [
  { name: 'document', at: (d) => d, path: '', schema: POLICY_JSON_SCHEMA },
  { name: 'rule', at: (d) => d.rules[0] as Record<string, unknown>, path: '/rules/0', schema: def('rule') },
  { name: 'amount', at: (d) => d.rules[0]?.amount as Record<string, unknown>, path: '/rules/0/amount', schema: def('amount') },
  { name: 'condition', at: (d) => d.rules[0]?.when[0] as Record<string, unknown>, path: '/rules/0/when/0', schema: def('condition') },
  {
    name: 'approvers',
    at: (d) => d.rules[0]?.approvers as Record<string, unknown>,
    path: '/rules/0/approvers',
    schema: def('approvers'),
  },
];

function def(name: string): JsonSchema {
  return POLICY_JSON_SCHEMA.definitions?.[name] as JsonSchema;
}

function withStranger(level: (typeof LEVELS)[number]): typeof everyLevel {
  const doc = structuredClone(everyLevel);
  level.at(doc).colour = 'blue';
  return doc;
}

describe('POLICY_JSON_SCHEMA', () => {
  it('accepts the example policy and a document reaching every level', () => {
    expect(validatePolicy(refunds).valid).toBe(true);
    expect(schemaErrors(refunds)).toEqual([]);
    expect(validatePolicy(everyLevel).errors).toEqual([]);
    expect(schemaErrors(everyLevel)).toEqual([]);
  });

  it('accepts every template instance, with default and with other parameters', () => {
    const others: Record<string, string> = { currency: 'EUR', auto_limit: '49.99', approval_limit: '5000.00', approval_ttl_seconds: '60' };
    for (const template of listTemplates()) {
      const params = Object.fromEntries(template.parameters.filter((p) => p.name in others).map((p) => [p.name, others[p.name] as string]));
      for (const given of [{}, params]) {
        const draft = createFromTemplate(template.name, given);
        if (!draft.ok) throw new Error(`${template.name}: ${draft.errors.map((e) => e.message).join('; ')}`);
        expect(schemaErrors(draft.document), template.name).toEqual([]);
      }
    }
  });

  it.each(LEVELS)('refuses an unknown member of the $name, as the validator does', (level) => {
    const doc = withStranger(level);
    expect(validatePolicy(doc).errors).toContainEqual(expect.objectContaining({ code: 'UNKNOWN_MEMBER', path: `${level.path}/colour` }));
    expect(schemaErrors(doc)).toContain(`${level.path || '/'}: unknown member colour`);
  });

  it.each(LEVELS)('names exactly the members the validator knows for the $name', (level) => {
    const unknown = validatePolicy(withStranger(level)).errors.find((e) => e.code === 'UNKNOWN_MEMBER');
    const known = unknown?.message.match(/expected one of (.*)$/)?.[1]?.split(', ');
    expect(Object.keys(level.schema.properties ?? {}).sort()).toEqual(known?.sort());
  });

  it('refuses what the validator refuses for the effect: approvers on an allow rule, none on require_approval', () => {
    const allowWithApprovers = { ...refunds, rules: [{ id: 'a', actions: ['x.y'], effect: 'allow', approvers: { roles: ['owner'] } }] };
    expect(validatePolicy(allowWithApprovers).errors[0]?.code).toBe('APPROVERS_NOT_ALLOWED');
    expect(schemaErrors(allowWithApprovers)).not.toEqual([]);
    const approvalWithout = { ...refunds, rules: [{ id: 'a', actions: ['x.y'], effect: 'require_approval' }] };
    expect(validatePolicy(approvalWithout).errors[0]?.code).toBe('APPROVERS_REQUIRED');
    expect(schemaErrors(approvalWithout)).toContain('/rules/0: missing approvers');
  });

  it('carries a description on every member, for hover', () => {
    const undescribed: string[] = [];
    const visit = (schema: JsonSchema, at: string) => {
      for (const [name, member] of Object.entries(schema.properties ?? {})) {
        const target = member.$ref ? def(member.$ref.replace('#/definitions/', '')) : member;
        if (target.description === undefined) undescribed.push(`${at}/${name}`);
      }
    };
    visit(POLICY_JSON_SCHEMA, '');
    for (const [name, schema] of Object.entries(POLICY_JSON_SCHEMA.definitions ?? {})) visit(schema, `#${name}`);
    expect(undescribed).toEqual([]);
  });
});
