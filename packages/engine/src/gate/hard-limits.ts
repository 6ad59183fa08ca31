// The gate's own limits, judged in order before any rule: the policies' language revision, the rule set's
// status, the catalogue (is the tool known, its binding authorized), the delegation (its actions, its
// validity), the amount (its mapping and value) and the spending limit. A call past them all is admitted to the rules (decide-call.ts).
import { compareDecimal } from '../conditions/decimal.ts';
import { type CompiledTool, INVALID_AMOUNT } from '../policy/tool.ts';
import type { CatalogueTool } from '../rulebook/catalogue.ts';
import { type DecisionScope, definitionChangedSummary, gateDecision, gateDenial, notAuthorizedSummary } from './gate-decision.ts';
import type { GateDecision, PreparedCallInput } from './gate-types.ts';
import type { PreparedGate, PreparedTool } from './prepare-gate.ts';

/** A call the gate's own limits let through: its prepared tool, and the scope its decisions are worded in. */
export interface AdmittedCall {
  readonly scope: DecisionScope;
  readonly prep: PreparedTool;
  readonly entry: CatalogueTool;
  readonly tool: CompiledTool;
  /** The decision time in milliseconds. */
  readonly t: number;
}

/** Either the gate's own refusal of the call, or the call admitted to the rules. */
export type Admission = { readonly refused: GateDecision } | { readonly refused?: undefined; readonly admitted: AdmittedCall };

/** Judges the gate's own limits in order; the first that refuses decides. */
export function admitCall(prepared: PreparedGate, input: PreparedCallInput): Admission {
  const { call, now } = input;
  const prep = prepared.tools.get(call.tool);
  const scope: DecisionScope = {
    level: prepared.parts.disclosure ?? 'rule',
    base: { action: prep?.entry.action ?? null, amount: null, currency: null },
  };
  const language = prepared.languageRefusal;
  if (language !== undefined) return { refused: gateDenial(scope, language.code, language.summary) };
  const byRuleset = refusedByRulesetStatus(prepared, scope);
  if (byRuleset !== undefined) return { refused: byRuleset };
  if (prep === undefined) {
    return { refused: gateDenial(scope, 'TOOL_UNKNOWN', `the catalogue holds no tool named ${call.tool}, so the call is denied`) };
  }
  const t = now.getTime();
  const refused =
    refusedUnauthorizedBinding(prep, scope) ??
    refusedChangedDefinition(prep, call.definition, scope) ??
    refusedOutsideDelegation(prep, scope) ??
    refusedExpiredDelegation(prepared, t, scope) ??
    refusedInvalidToolConfiguration(prep, scope) ??
    refusedByAmount(prepared, prep, call.arguments, scope);
  if (refused !== undefined) return { refused };
  return { admitted: { scope, prep, entry: prep.entry, tool: prep.compiled, t } };
}

/** An archived, disabled, draft, unapproved or unusable rule set refuses every call (prepared once). */
function refusedByRulesetStatus(prepared: PreparedGate, scope: DecisionScope): GateDecision | undefined {
  const refusal = prepared.rulesetRefusal;
  if (refusal === undefined) return undefined;
  const d = gateDecision(scope, refusal.decision, refusal.code, null, refusal.summary);
  if (refusal.replaced_by !== undefined) d.notice.replaced_by = refusal.replaced_by;
  return d;
}

function refusedUnauthorizedBinding(prep: PreparedTool, scope: DecisionScope): GateDecision | undefined {
  return prep.authorized ? undefined : gateDenial(scope, 'TOOL_NOT_AUTHORIZED', notAuthorizedSummary(prep.entry.name));
}

function refusedChangedDefinition(
  prep: PreparedTool,
  definition: 'authorized' | 'changed' | undefined,
  scope: DecisionScope,
): GateDecision | undefined {
  return definition === 'changed' ? gateDenial(scope, 'TOOL_DEFINITION_CHANGED', definitionChangedSummary(prep.entry.name)) : undefined;
}

function refusedOutsideDelegation(prep: PreparedTool, scope: DecisionScope): GateDecision | undefined {
  if (prep.delegated) return undefined;
  return gateDenial(scope, 'DELEGATION_ACTION', `the delegation does not cover the action ${prep.entry.action}, so the call is denied`);
}

/** A delegation whose valid_until has passed, or does not parse, refuses every call. */
function refusedExpiredDelegation(prepared: PreparedGate, t: number, scope: DecisionScope): GateDecision | undefined {
  if (!prepared.hasValidUntil || (prepared.validUntil !== undefined && prepared.validUntil > t)) return undefined;
  return gateDenial(scope, 'DELEGATION_EXPIRED', 'the delegation is no longer valid, so the call is denied');
}

function refusedInvalidToolConfiguration(prep: PreparedTool, scope: DecisionScope): GateDecision | undefined {
  if (prep.compiled.valid) return undefined;
  return gateDenial(scope, 'INVALID_TOOL_CONFIGURATION', `${prep.entry.name}'s amount mapping is invalid, so every call is denied`);
}

/**
 * Reads the call's amount into the scope (every later decision carries it), refusing one that is present
 * but not an accepted value, then judges the delegation's spending limit.
 */
function refusedByAmount(prepared: PreparedGate, prep: PreparedTool, args: unknown, scope: DecisionScope): GateDecision | undefined {
  const tool = prep.compiled;
  const amount = tool.readAmount(args);
  if (amount === INVALID_AMOUNT) {
    return gateDenial(scope, 'INVALID_AMOUNT', 'the amount (or its currency) is present but not an accepted value, so the call is denied');
  }
  if (amount !== undefined) {
    scope.base.amount = amount;
    scope.base.currency = tool.currency ?? null;
  }
  const why = overSpendingLimit(prepared, prep, amount);
  if (why === undefined) return undefined;
  return gateDenial(scope, 'DELEGATION_SPENDING_LIMIT', `the delegation has a spending limit and ${why}, so the call is denied`);
}

/** Why the call is outside the delegation's spending limit, or undefined when it has none or is within it. */
function overSpendingLimit(prepared: PreparedGate, prep: PreparedTool, amount: string | undefined): string | undefined {
  const limit = prepared.parts.delegation.spending_limit;
  if (limit === undefined) return undefined;
  const currency = prep.compiled.currency;
  if (currency === undefined) return `${prep.entry.name} has no amount mapping`;
  if (amount === undefined) return 'the call has no amount';
  if (currency !== limit.currency) return `the amount is in ${currency}, not the limit's ${limit.currency}`;
  if (compareDecimal(amount, limit.amount) > 0) return `the amount is over the limit of ${limit.amount} ${limit.currency}`;
  return undefined;
}
