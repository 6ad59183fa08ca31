// Explanations: why a call was decided, naming the rule, its conditions (path, operator, the policy's
// own operand) and every fail-closed match. Never an argument value: none is ever copied in here.
import type { Bounds } from '../conditions/bounds.ts';
import { familyOf } from '../conditions/condition.ts';
import { type Tri, UNKNOWN } from '../conditions/tri.ts';
import type { CompiledPolicy, CompiledRule, PolicyOutcome } from './compile.ts';
import { type AmountReading, type CompiledTool, INVALID_AMOUNT } from './tool.ts';
import type { Effect } from './types.ts';

export interface ExplainedCondition {
  path: string;
  operator: string;
  /** The policy's operand (never the argument's value). */
  operand: unknown;
  for?: 'all' | 'any';
  result: 'true' | 'false' | 'unknown';
}

export interface ExplainedAmount {
  currency: string;
  bounds: Bounds;
  result: 'true' | 'false' | 'unknown';
}

export type FailClosedReason = 'amount_missing' | 'amount_currency_differs' | 'argument_unreadable';

export interface FailClosedMatch {
  rule: string;
  effect: Effect;
  reasons: FailClosedReason[];
  /** Conditions that were indeterminate: path and operator only. */
  conditions?: { path: string; operator: string }[];
}

export interface Explanation {
  /** A sentence for people. */
  summary: string;
  decided_by: 'rule' | 'default' | 'invalid_amount' | 'invalid_tool_configuration';
  rule: null | {
    id: string;
    effect: Effect;
    description?: string;
    amount?: ExplainedAmount;
    conditions: ExplainedCondition[];
  };
  /** Rules that matched only because a value could not be read (docs/policy.md, "Amounts"). */
  fail_closed: FailClosedMatch[];
}

const TRI_NAME = ['false', 'true', 'unknown'] as const;

/** Builds the explanation of an outcome by re-evaluating every candidate (the slow path, for people). */
export function explainOutcome(policy: CompiledPolicy, tool: CompiledTool, args: unknown, outcome: PolicyOutcome): Explanation {
  if (outcome.code === 'INVALID_TOOL_CONFIGURATION') {
    return {
      summary: `the tool's configuration is invalid, so every call is denied`,
      decided_by: 'invalid_tool_configuration',
      rule: null,
      fail_closed: [],
    };
  }
  const amount = tool.readAmount(args);
  if (amount === INVALID_AMOUNT) {
    return {
      summary: 'the amount (or its currency) is present but not an accepted value, so the call is denied before any rule',
      decided_by: 'invalid_amount',
      rule: null,
      fail_closed: [],
    };
  }
  const fail_closed: FailClosedMatch[] = [];
  let decided: CompiledRule | undefined;
  for (const rule of [...policy.candidates(tool.action)].sort((a, b) => a.index - b.index)) {
    if (rule.tools !== null && !rule.tools.has(tool.name)) continue;
    if (rule.outcome === outcome) decided = rule;
    if (rule.effect === 'allow' || !rule.applies(tool.currency, amount, args)) continue;
    const match = failClosedMatch(rule, tool, amount, args);
    if (match) fail_closed.push(match);
  }
  if (!decided) {
    return {
      summary: `no rule matched, so the default (${outcome.decision}) decided`,
      decided_by: 'default',
      rule: null,
      fail_closed,
    };
  }
  const explained = explainRule(decided, tool, amount, args);
  const because = fail_closed.some((m) => m.rule === decided.id) ? ', fail closed because a value could not be read' : '';
  return {
    summary: `rule ${decided.id} (${decided.effect}) decided${because}`,
    decided_by: 'rule',
    rule: explained,
    fail_closed,
  };
}

function explainRule(rule: CompiledRule, tool: CompiledTool, amount: AmountReading, args: unknown): NonNullable<Explanation['rule']> {
  const out: NonNullable<Explanation['rule']> = { id: rule.id, effect: rule.effect, conditions: [] };
  if (rule.source.description !== undefined) out.description = rule.source.description;
  if (rule.amountBounds !== null && rule.amountCurrency !== null) {
    out.amount = {
      currency: rule.amountCurrency,
      bounds: { ...rule.amountBounds },
      result: TRI_NAME[rule.amountResult(tool.currency, amount)],
    };
  }
  for (const c of rule.conditions) {
    const family = familyOf(c.source);
    const src = c.source as unknown as Record<string, unknown>;
    const operand =
      family.name === 'bounds'
        ? Object.fromEntries(family.members.filter((m) => src[m] !== undefined).map((m) => [m, src[m]]))
        : src[family.name];
    const explained: ExplainedCondition = { path: c.source.path, operator: family.name, operand, result: TRI_NAME[c.evaluate(args)] };
    if (c.source.for) explained.for = c.source.for;
    out.conditions.push(explained);
  }
  return out;
}

function failClosedMatch(rule: CompiledRule, tool: CompiledTool, amount: AmountReading, args: unknown): FailClosedMatch | undefined {
  const reasons: FailClosedReason[] = [];
  if (rule.amountResult(tool.currency, amount) === UNKNOWN) {
    reasons.push(amount !== undefined && tool.currency !== rule.amountCurrency ? 'amount_currency_differs' : 'amount_missing');
  }
  const unreadable: { path: string; operator: string }[] = [];
  for (const c of rule.conditions) {
    const t: Tri = c.evaluate(args);
    if (t === UNKNOWN) unreadable.push({ path: c.source.path, operator: familyOf(c.source).name });
  }
  if (unreadable.length > 0) reasons.push('argument_unreadable');
  if (reasons.length === 0) return undefined;
  const match: FailClosedMatch = { rule: rule.id, effect: rule.effect, reasons };
  if (unreadable.length > 0) match.conditions = unreadable;
  return match;
}
