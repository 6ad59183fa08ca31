// validatePolicy: every problem of a policy@1 document, each with a code and a JSON Pointer path,
// errors and warnings apart (docs/policy.md, "Validation errors").
import { validateBounds } from '../conditions/bounds.ts';
import { unknownMember, validateCondition } from '../conditions/condition.ts';
import { problem } from '../conditions/family.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { withDoubles } from '../source/json-number.ts';
import { isActionPattern, isReserved, matchesAction } from './pattern.ts';
import { type PolicyRevision, policyRevision } from './revision.ts';
import { CURRENCY, TOOL_NAME } from './tool.ts';
import type { Member, PolicyDocument, PolicyRule, ToolBinding } from './types.ts';
import { POLICY_SCHEMAS } from './types.ts';
import { listOf, validateApprovers } from './validate-approvers.ts';

export const MAX_RULES = 1000;
export const MAX_ACTIONS = 64;
export const MAX_TOOLS = 64;
export const MAX_CONDITIONS = 32;
export const MAX_DESCRIPTION = 500;
export const MIN_TTL_SECONDS = 60;
export const MAX_TTL_SECONDS = 2_592_000;
const RULE_ID = /^[a-z0-9-]{1,64}$/;
const DOCUMENT_MEMBERS = ['schema', 'default', 'rules'];
const RULE_MEMBERS = ['id', 'description', 'actions', 'tools', 'amount', 'when', 'effect', 'approvers', 'approval_ttl_seconds', 'guard'];
const AMOUNT_MEMBERS = ['currency', 'gt', 'gte', 'lt', 'lte'];
const EFFECTS = ['allow', 'require_approval', 'deny'];

export interface ValidationOptions {
  /** Members, to check approvers.users (UNKNOWN_APPROVER, APPROVER_ROLE_NOT_CAPABLE). */
  members?: readonly Member[];
  /** The agent's tools, for FAIL_CLOSED_ROUTING and RULE_MATCHES_NO_TOOL warnings. */
  tools?: readonly ToolBinding[];
}

export interface ValidationResult {
  valid: boolean;
  revision: PolicyRevision;
  errors: Diagnostic[];
  warnings: Diagnostic[];
}

/**
 * Validates a parsed policy document.
 *
 * @example
 * validatePolicy({ schema: 'tollgate/policy@1', default: 'deny', rules: [] })
 * // { valid: true, revision: 1, errors: [], warnings: [] }
 */
export function validatePolicy(read: unknown, options: ValidationOptions = {}): ValidationResult {
  // A number kept as written is its reader's INEXACT_NUMBER; the shape around it is checked as a double.
  const document = withDoubles(read);
  const errors: Diagnostic[] = [];
  const warnings: Diagnostic[] = [];
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    errors.push(problem('INVALID_TYPE', '', 'a policy document is a JSON object {"schema", "default", "rules"}'));
    return { valid: false, revision: 1, errors, warnings };
  }
  const doc = document as Record<string, unknown>;
  for (const key of Object.keys(doc)) if (!DOCUMENT_MEMBERS.includes(key)) errors.push(unknownMember('', key, DOCUMENT_MEMBERS));

  if (doc.schema === undefined) errors.push(problem('MISSING_MEMBER', '/schema', `add "schema": "${POLICY_SCHEMAS[0]}"`));
  else if (!(POLICY_SCHEMAS as readonly unknown[]).includes(doc.schema)) {
    errors.push(problem('UNSUPPORTED_SCHEMA', '/schema', `expected "${POLICY_SCHEMAS[0]}" (or "${POLICY_SCHEMAS[1]}")`));
  }

  if (doc.default === undefined) errors.push(problem('MISSING_MEMBER', '/default', 'add "default": "deny" or "require_approval"'));
  else if (doc.default === 'allow') {
    errors.push(
      problem(
        'PERMISSIVE_DEFAULT',
        '/default',
        'a permissive default is not possible: allow what you want with a rule, and default to "deny" or "require_approval"',
      ),
    );
  } else if (doc.default !== 'deny' && doc.default !== 'require_approval') {
    errors.push(problem('INVALID_VALUE', '/default', 'expected "deny" or "require_approval"'));
  }

  if (doc.rules === undefined) errors.push(problem('MISSING_MEMBER', '/rules', 'add "rules": a list of rules (it may be empty)'));
  else if (!Array.isArray(doc.rules)) errors.push(problem('INVALID_TYPE', '/rules', 'rules is a list'));
  else {
    if (doc.rules.length > MAX_RULES) errors.push(problem('LIST_TOO_LONG', '/rules', `at most ${MAX_RULES} rules`));
    const ids = new Set<string>();
    doc.rules.forEach((rule, i) => {
      validateRule(rule, `/rules/${i}`, ids, errors, options.members);
    });
  }

  const valid = errors.length === 0;
  if (valid && options.tools) warnAboutTools(doc as unknown as PolicyDocument, options.tools, warnings);
  return { valid, revision: policyRevision(doc), errors, warnings };
}

function validateRule(rule: unknown, path: string, ids: Set<string>, errors: Diagnostic[], members?: readonly Member[]): void {
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) {
    errors.push(problem('INVALID_TYPE', path, 'a rule is an object {"id", "actions", "effect", ...}'));
    return;
  }
  const r = rule as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!RULE_MEMBERS.includes(key)) errors.push(unknownMember(path, key, RULE_MEMBERS));

  if (r.id === undefined) errors.push(problem('MISSING_MEMBER', path, 'a rule needs an "id"'));
  else if (typeof r.id !== 'string' || !RULE_ID.test(r.id)) {
    errors.push(problem('INVALID_RULE_ID', `${path}/id`, 'a rule id is 1-64 lowercase letters, digits and -'));
  } else if (ids.has(r.id)) errors.push(problem('DUPLICATE_RULE_ID', `${path}/id`, `another rule is already called "${r.id}"`));
  else ids.add(r.id);

  if (r.description !== undefined) {
    if (typeof r.description !== 'string') errors.push(problem('INVALID_TYPE', `${path}/description`, 'a description is a string'));
    else if (r.description.trim() === '' || r.description.length > MAX_DESCRIPTION) {
      errors.push(problem('INVALID_VALUE', `${path}/description`, `a description is 1-${MAX_DESCRIPTION} characters of text`));
    }
  }

  if (r.actions === undefined)
    errors.push(problem('MISSING_MEMBER', path, 'a rule needs "actions": a list of action patterns such as "refund.issue" or "payouts.*"'));
  else {
    listOf(r.actions, `${path}/actions`, errors, MAX_ACTIONS, (pattern, at) => {
      if (typeof pattern !== 'string' || !isActionPattern(pattern)) {
        errors.push(
          problem(
            'INVALID_ACTION_PATTERN',
            at,
            'a pattern is dot-separated segments of a-z, 0-9, _ and -, with an optional final * (payouts.*), or * alone; at most 128 characters',
          ),
        );
        return undefined;
      }
      if (isReserved(pattern)) {
        errors.push(problem('RESERVED_NAMESPACE', at, 'the tollgate. namespace is reserved; no tool action can use it'));
      }
      return pattern;
    });
  }

  if (r.tools !== undefined) {
    listOf(r.tools, `${path}/tools`, errors, MAX_TOOLS, (name, at) => {
      if (typeof name === 'string' && TOOL_NAME.test(name)) return name;
      errors.push(problem('INVALID_TOOL_NAME', at, 'a tool name is 1-128 letters, digits, _, - or .'));
      return undefined;
    });
  }

  if (r.amount !== undefined) validateAmountCondition(r.amount, `${path}/amount`, errors);

  if (r.when !== undefined) {
    if (!Array.isArray(r.when)) errors.push(problem('INVALID_TYPE', `${path}/when`, 'when is a list of conditions'));
    else {
      if (r.when.length === 0) errors.push(problem('EMPTY_LIST', `${path}/when`, 'list at least one condition, or remove when'));
      if (r.when.length > MAX_CONDITIONS) errors.push(problem('LIST_TOO_LONG', `${path}/when`, `at most ${MAX_CONDITIONS} conditions`));
      r.when.forEach((c, i) => {
        validateCondition(c, `${path}/when/${i}`, errors);
      });
    }
  }

  if (r.effect === undefined) errors.push(problem('MISSING_MEMBER', path, 'a rule needs "effect": "allow", "require_approval" or "deny"'));
  else if (!EFFECTS.includes(r.effect as string))
    errors.push(problem('INVALID_VALUE', `${path}/effect`, 'expected "allow", "require_approval" or "deny"'));
  const approval = r.effect === 'require_approval';
  const effectKnown = typeof r.effect === 'string' && EFFECTS.includes(r.effect);

  if (r.approvers !== undefined) {
    if (effectKnown && !approval)
      errors.push(
        problem(
          'APPROVERS_NOT_ALLOWED',
          `${path}/approvers`,
          `only a require_approval rule has approvers; this rule's effect is ${r.effect}`,
        ),
      );
    else validateApprovers(r.approvers, `${path}/approvers`, errors, members);
  } else if (approval) {
    errors.push(
      problem(
        'APPROVERS_REQUIRED',
        path,
        'a require_approval rule must say who may approve: "approvers": {"roles": [...]} or {"users": [...]}',
      ),
    );
  }

  if (r.approval_ttl_seconds !== undefined) {
    const ttl = r.approval_ttl_seconds;
    if (effectKnown && !approval)
      errors.push(problem('TTL_NOT_ALLOWED', `${path}/approval_ttl_seconds`, 'only a require_approval rule has an approval lifetime'));
    else if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < MIN_TTL_SECONDS || ttl > MAX_TTL_SECONDS) {
      errors.push(
        problem(
          'INVALID_TTL',
          `${path}/approval_ttl_seconds`,
          `a whole number of seconds from ${MIN_TTL_SECONDS} to ${MAX_TTL_SECONDS} (30 days)`,
        ),
      );
    }
  }

  if (r.guard !== undefined) {
    if (typeof r.guard !== 'boolean') errors.push(problem('INVALID_TYPE', `${path}/guard`, 'guard is true or false'));
    else if (effectKnown && !approval)
      errors.push(
        problem(
          'GUARD_NOT_ALLOWED',
          `${path}/guard`,
          'guard marks a require_approval rule that observe windows never relax; this rule does not require approval',
        ),
      );
  }
}

function validateAmountCondition(amount: unknown, path: string, errors: Diagnostic[]): void {
  if (amount === null || typeof amount !== 'object' || Array.isArray(amount)) {
    errors.push(problem('INVALID_TYPE', path, 'an amount condition is an object such as {"currency": "USD", "lte": "100"}'));
    return;
  }
  const a = amount as Record<string, unknown>;
  for (const key of Object.keys(a)) if (!AMOUNT_MEMBERS.includes(key)) errors.push(unknownMember(path, key, AMOUNT_MEMBERS));
  if (a.currency === undefined) errors.push(problem('MISSING_MEMBER', path, 'an amount condition needs "currency", such as "USD"'));
  else if (typeof a.currency !== 'string' || !CURRENCY.test(a.currency)) {
    errors.push(problem('INVALID_CURRENCY', `${path}/currency`, 'a currency is an ISO 4217 code of three uppercase letters, such as USD'));
  }
  validateBounds(a, path, errors, false);
}

/** Rules whose actions and tools match a tool (document order). */
export function rulesForTool(document: PolicyDocument, tool: ToolBinding): number[] {
  const out: number[] = [];
  document.rules.forEach((rule, i) => {
    if (ruleMatchesTool(rule, tool)) out.push(i);
  });
  return out;
}

export function ruleMatchesTool(rule: PolicyRule, tool: ToolBinding): boolean {
  if (rule.tools && !rule.tools.includes(tool.name)) return false;
  return rule.actions.some((p) => matchesAction(p, tool.action));
}

function warnAboutTools(doc: PolicyDocument, tools: readonly ToolBinding[], warnings: Diagnostic[]): void {
  doc.rules.forEach((rule, i) => {
    const matching = tools.filter((t) => ruleMatchesTool(rule, t));
    if (matching.length === 0) {
      warnings.push({
        code: 'RULE_MATCHES_NO_TOOL',
        severity: 'warning',
        path: `/rules/${i}/actions`,
        message: `rule "${rule.id}" matches none of the given tools' actions; check its patterns`,
      });
    }
    if (!rule.amount) return;
    for (const tool of matching) {
      const why = !tool.amount
        ? `tool "${tool.name}" has no amount mapping`
        : tool.amount.currency !== rule.amount.currency
          ? `tool "${tool.name}" is mapped in ${tool.amount.currency}, the rule compares ${rule.amount.currency}`
          : undefined;
      if (!why) continue;
      const effect =
        rule.effect === 'allow' ? 'this allow rule never applies to its calls' : `its calls always match this ${rule.effect} rule`;
      warnings.push({
        code: 'FAIL_CLOSED_ROUTING',
        severity: 'warning',
        path: `/rules/${i}/amount`,
        message: `${why}, so the amount cannot be compared and ${effect} (fail closed)`,
      });
    }
  });
}
