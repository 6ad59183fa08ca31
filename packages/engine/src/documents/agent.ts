// The agent document (agents/*.agent.yaml): its catalogue, rulebook, policy or rule set, delegation and
// disclosure level, read strictly with every problem's path and line (docs/documents.md, "Agents").
import { isDecimalString } from '../conditions/decimal.ts';
import { problem } from '../conditions/family.ts';
import type { DisclosureLevel } from '../policy/evaluate.ts';
import { isActionPattern, isReserved } from '../policy/pattern.ts';
import { CURRENCY } from '../policy/tool.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { placeProblems } from '../source/place-problems.ts';
import { readYamlText } from '../source/yaml-text.ts';
import { checkMembers, isRecord, type ReferenceContext, readChoice, readDateTime, readList, readReference } from './values.ts';

export const DISCLOSURE_LEVELS: readonly DisclosureLevel[] = ['none', 'rule', 'conditions'];

/** The most an agent may spend, in one currency: a non-negative decimal string. */
export interface SpendingLimit {
  amount: string;
  currency: string;
}

/** The hard limit on what the agent may do, whatever its rules say. */
export interface Delegation {
  actions: string[];
  spending_limit?: SpendingLimit;
  /** An ISO 8601 date-time with an offset, as written. */
  valid_until?: string;
}

export interface Agent {
  catalogue: string;
  rulebook?: string;
  policy?: string;
  ruleset?: string;
  /** The rule-set version the agent runs; without it, the set's active version. */
  ruleset_version?: number;
  delegation: Delegation;
  /** `rule` unless the file says otherwise. */
  disclosure: DisclosureLevel;
}

export type AgentResult = { ok: true; agent: Agent; problems: [] } | { ok: false; problems: Diagnostic[] };

export const MAX_DELEGATED_ACTIONS = 64;
const MEMBERS = ['catalogue', 'rulebook', 'policy', 'ruleset', 'ruleset_version', 'delegation', 'disclosure'];
const DELEGATION_MEMBERS = ['actions', 'spending_limit', 'valid_until'];
const LIMIT_MEMBERS = ['amount', 'currency'];

/**
 * Reads an agent from its YAML text. With a store to ask, every document it names must exist.
 *
 * @example
 * readAgent('catalogue: catalogue.yaml\npolicy: policies/refunds.policy.json\ndelegation:\n  actions: [refund.*]\n')
 * // { ok: true, agent: { catalogue: 'catalogue.yaml', policy: '...', delegation: { actions: ['refund.*'] }, disclosure: 'rule' }, problems: [] }
 */
export function readAgent(text: string, context?: ReferenceContext): AgentResult {
  const read = readYamlText(text);
  if (!read.ok) return { ok: false, problems: [{ ...read.diagnostic, path: '' }] };
  const problems = [...read.diagnostics];
  const agent = validateAgent(read.value, problems, context);
  if (agent !== undefined && problems.length === 0) return { ok: true, agent, problems: [] };
  return { ok: false, problems: placeProblems(problems, read.rangeOf) };
}

/**
 * Validates an agent already read into plain values; pushes every problem with its path.
 *
 * @example
 * validateAgent({ catalogue: 'catalogue.yaml', delegation: { actions: ['refund.*'] } }, problems)
 * // undefined; problems: POLICY_OR_RULESET
 */
export function validateAgent(value: unknown, problems: Diagnostic[], context?: ReferenceContext): Agent | undefined {
  const before = problems.length;
  if (!isRecord(value)) {
    problems.push(problem('INVALID_TYPE', '', 'an agent is a mapping: catalogue, rulebook, policy or ruleset, delegation, disclosure'));
    return undefined;
  }
  checkMembers(value, '', MEMBERS, problems);
  if (value.catalogue === undefined) problems.push(problem('MISSING_MEMBER', '', 'an agent needs catalogue: the id of its catalogue'));
  const catalogue =
    value.catalogue === undefined ? undefined : readReference(value.catalogue, '/catalogue', ['catalogue'], problems, context);
  const rulebook =
    value.rulebook === undefined ? undefined : readReference(value.rulebook, '/rulebook', ['sheet', 'colang'], problems, context);
  if ((value.policy === undefined) === (value.ruleset === undefined)) {
    const both = value.policy !== undefined;
    problems.push(
      problem(
        'POLICY_OR_RULESET',
        '',
        both
          ? 'an agent names a policy or a rule set, not both: remove one'
          : 'an agent names a policy or a rule set: add policy: or ruleset:',
      ),
    );
  }
  const policy = value.policy === undefined ? undefined : readReference(value.policy, '/policy', ['policy'], problems, context);
  const ruleset = value.ruleset === undefined ? undefined : readReference(value.ruleset, '/ruleset', ['ruleset'], problems, context);
  const rulesetVersion = value.ruleset_version;
  if (rulesetVersion !== undefined) {
    if (value.ruleset === undefined) {
      problems.push(problem('INVALID_VALUE', '/ruleset_version', 'ruleset_version names a version of the agent’s ruleset: add ruleset:'));
    } else if (!(typeof rulesetVersion === 'number' && Number.isSafeInteger(rulesetVersion) && rulesetVersion > 0)) {
      problems.push(problem('INVALID_VALUE', '/ruleset_version', 'ruleset_version is a positive integer: the rule-set version to run'));
    } else if (ruleset !== undefined && context?.exists && !context.exists(ruleset, rulesetVersion)) {
      problems.push(problem('REFERENCE_NOT_FOUND', '/ruleset_version', `version ${rulesetVersion} of ${ruleset} does not exist`));
    }
  }
  const delegation = readDelegation(value.delegation, problems);
  const disclosure = value.disclosure === undefined ? 'rule' : readChoice(value.disclosure, '/disclosure', DISCLOSURE_LEVELS, problems);
  if (problems.length !== before || catalogue === undefined || delegation === undefined || disclosure === undefined) return undefined;
  const agent: Agent = { catalogue, delegation, disclosure };
  if (rulebook !== undefined) agent.rulebook = rulebook;
  if (policy !== undefined) agent.policy = policy;
  if (ruleset !== undefined) agent.ruleset = ruleset;
  if (ruleset !== undefined && typeof rulesetVersion === 'number') agent.ruleset_version = rulesetVersion;
  return agent;
}

function readDelegation(value: unknown, problems: Diagnostic[]): Delegation | undefined {
  if (value === undefined) {
    problems.push(
      problem('MISSING_MEMBER', '', 'an agent needs delegation: the actions it may take, and optionally a spending limit and end'),
    );
    return undefined;
  }
  if (!isRecord(value)) {
    problems.push(problem('INVALID_TYPE', '/delegation', 'delegation is a mapping: actions, spending_limit, valid_until'));
    return undefined;
  }
  const before = problems.length;
  checkMembers(value, '/delegation', DELEGATION_MEMBERS, problems);
  let actions: string[] | undefined;
  if (value.actions === undefined) {
    problems.push(
      problem('MISSING_MEMBER', '/delegation', 'delegation needs actions: the action patterns the agent may take, such as [refund.*]'),
    );
  } else {
    actions = readList(value.actions, '/delegation/actions', MAX_DELEGATED_ACTIONS, problems, (pattern, at) =>
      readPattern(pattern, at, problems),
    );
    if (actions !== undefined && (value.actions as unknown[]).length === 0) {
      problems.push(problem('EMPTY_LIST', '/delegation/actions', 'list at least one action pattern'));
    }
  }
  const limit = value.spending_limit === undefined ? undefined : readLimit(value.spending_limit, problems);
  if (value.valid_until !== undefined) readDateTime(value.valid_until, '/delegation/valid_until', problems);
  if (problems.length !== before || actions === undefined) return undefined;
  const delegation: Delegation = { actions };
  if (limit !== undefined) delegation.spending_limit = limit;
  if (typeof value.valid_until === 'string') delegation.valid_until = value.valid_until;
  return delegation;
}

function readPattern(pattern: unknown, at: string, problems: Diagnostic[]): { key: string; value: string } | undefined {
  if (typeof pattern !== 'string' || !isActionPattern(pattern)) {
    problems.push(
      problem(
        'INVALID_ACTION_PATTERN',
        at,
        'a pattern is dot-separated segments of a-z, 0-9, _ and -, with an optional final * (refund.*), or * alone',
      ),
    );
    return undefined;
  }
  if (isReserved(pattern)) {
    problems.push(problem('RESERVED_NAMESPACE', at, 'the tollgate. namespace is reserved; no tool action can use it'));
    return undefined;
  }
  return { key: pattern, value: pattern };
}

function readLimit(value: unknown, problems: Diagnostic[]): SpendingLimit | undefined {
  const path = '/delegation/spending_limit';
  if (!isRecord(value)) {
    problems.push(problem('INVALID_TYPE', path, 'a spending limit is a mapping such as {amount: "500", currency: USD}'));
    return undefined;
  }
  const before = problems.length;
  checkMembers(value, path, LIMIT_MEMBERS, problems);
  if (value.amount === undefined)
    problems.push(problem('MISSING_MEMBER', path, 'a spending limit needs amount, a decimal string such as "500"'));
  else if (typeof value.amount !== 'string' || !isDecimalString(value.amount)) {
    problems.push(
      problem('INVALID_DECIMAL', `${path}/amount`, 'write the amount as a quoted non-negative decimal string such as "500" or "99.50"'),
    );
  }
  if (value.currency === undefined) problems.push(problem('MISSING_MEMBER', path, 'a spending limit needs currency, such as USD'));
  else if (typeof value.currency !== 'string' || !CURRENCY.test(value.currency)) {
    problems.push(
      problem('INVALID_CURRENCY', `${path}/currency`, 'a currency is an ISO 4217 code of three uppercase letters, such as USD'),
    );
  }
  if (problems.length !== before) return undefined;
  return { amount: value.amount as string, currency: value.currency as string };
}
