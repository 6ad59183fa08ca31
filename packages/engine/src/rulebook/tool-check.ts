// The tool check: one call decided from the rulebook, the overlaid catalogue, the session's earlier calls,
// host-set contexts and a person's confirmation (docs/catalogue.md, "The tool check").
import { codeView } from '../codes/index.ts';
import { TRUE, UNKNOWN } from '../conditions/tri.ts';
import type { Catalogue, CatalogueTool } from './catalogue.ts';
import { evaluateCheck, type SessionCall } from './check.ts';
import { evaluateExpr, unmetContexts } from './expr.ts';
import type { Check, Flow, Literal, Rulebook } from './types.ts';

/** Every code a refusal carries, with when it occurs; never renamed or reused. */
export const TOOL_CHECK_CODES = codeView('tool-check');

export type ToolCheckCode = keyof typeof TOOL_CHECK_CODES;

export interface ToolCall {
  tool: string;
  arguments: unknown;
}

export interface ToolCheckInput {
  rulebook: Rulebook;
  /** The catalogue with the sheet's overlay already laid over it (layOverlay). */
  catalogue: Catalogue;
  call: ToolCall;
  /** Contexts the host set for this call; computed contexts are never read from here. */
  contexts?: Record<string, unknown>;
  /** This session's earlier calls that ran, oldest first, with their results. */
  history?: readonly SessionCall[];
  /** Whether a person confirmed this call. */
  confirmed?: boolean;
}

export type ToolVerdict =
  | { verdict: 'allow' }
  | { verdict: 'refuse'; rule: string | null; reason: string; code: ToolCheckCode }
  | { verdict: 'confirm'; rule: string; confirmation: string };

/**
 * Decides one call, in this order: unknown tool; the rulebook's flow for the tool (never, then its guard);
 * the declarations: after, not_after, at_most, checks; then a declared confirmation. Reasons are
 * sentences for people and never hold an argument value.
 *
 * @example
 * checkTool({ rulebook, catalogue, call: { tool: 'refund_card', arguments: { amount: 500 } }, contexts: { supervisor_approved: true } })
 * // { verdict: 'allow' }
 */
export function checkTool(input: ToolCheckInput): ToolVerdict {
  const { call } = input;
  const contexts = input.contexts ?? {};
  const history = input.history ?? [];
  const tool = input.catalogue.tools.find((t) => t.name === call.tool);
  if (tool === undefined) {
    return refuse(null, 'TOOL_UNKNOWN', `The catalogue holds no tool named ${call.tool}, so the call is refused.`);
  }
  const name = tool.name;
  const flow = findFlow(input.rulebook.flows, name);
  if (flow !== undefined) {
    if ('refuse' in flow) return refuse(name, 'NEVER', `${name} never runs: the rulebook refuses it outright.`);
    if (evaluateExpr(flow.allow_when, call.arguments, contexts) !== TRUE) {
      return refuse(name, 'REQUIREMENT_UNMET', unmetReason(name, unmetContexts(flow.allow_when, contexts)));
    }
  }
  const missing = (tool.after ?? []).filter((before) => !history.some((c) => c?.tool === before));
  if (missing.length > 0) {
    return refuse(
      name,
      'ORDER_AFTER',
      `${name} runs only after ${words(tool.after ?? [])}, and ${words(missing)} ${missing.length === 1 ? 'has' : 'have'} not run in this session.`,
    );
  }
  const ran = (tool.not_after ?? []).filter((before) => history.some((c) => c?.tool === before));
  if (ran.length > 0) {
    return refuse(name, 'ORDER_NOT_AFTER', `${name} never runs after ${words(ran)}, which ran earlier in this session.`);
  }
  if (tool.at_most !== undefined) {
    let count = 0;
    for (const c of history) if (c?.tool === name) count++;
    if (count >= tool.at_most) {
      return refuse(name, 'AT_MOST_EXCEEDED', `${name} runs at most ${times(tool.at_most)} in a session, and it has run ${times(count)}.`);
    }
  }
  for (const check of tool.checks ?? []) {
    const t = evaluateCheck(check, call.arguments, history);
    if (t === TRUE) continue;
    return t === UNKNOWN
      ? refuse(name, 'CHECK_UNREADABLE', `${name}'s check "${describeCheck(check)}" cannot be read for this call, so the call is refused.`)
      : refuse(name, 'CHECK_FAILED', `${name}'s check "${describeCheck(check)}" does not hold for this call.`);
  }
  if (tool.confirmation !== undefined && input.confirmed !== true) {
    return { verdict: 'confirm', rule: name, confirmation: tool.confirmation };
  }
  return { verdict: 'allow' };
}

/**
 * Whether checking a call of `tool` (its entry as checkTool finds it) reads the session's history: only its
 * order (`after`, `not_after`), its count (`at_most`) and checks against an earlier call (`from`) do, so a host
 * may skip reading the history for any other tool. Anything it cannot tell apart reads it.
 *
 * @example
 * toolReadsHistory({ name: 'issue_refund', action: 'refund.issue', at_most: 5 }) // true
 * toolReadsHistory({ name: 'read_order', action: 'orders.read' }) // false
 */
export function toolReadsHistory(tool: CatalogueTool): boolean {
  if (tool.after !== undefined || tool.not_after !== undefined || tool.at_most !== undefined) return true;
  const checks: unknown = tool.checks;
  if (checks === undefined) return false;
  return !Array.isArray(checks) || checks.some((c) => c === null || typeof c !== 'object' || (c as Check).from !== undefined);
}

function findFlow(flows: readonly Flow[], name: string): Flow | undefined {
  for (const flow of flows) if (flow.action === name) return flow;
  return undefined;
}

function refuse(rule: string | null, code: ToolCheckCode, reason: string): ToolVerdict {
  return { verdict: 'refuse', rule, reason, code };
}

function unmetReason(name: string, unmet: readonly string[]): string {
  if (unmet.length === 0) return `${name} runs only where its rule's conditions hold, and for this call they do not.`;
  return `${name} needs ${words(unmet)}, which this call does not have.`;
}

function words(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

function times(n: number): string {
  return n === 1 ? 'once' : `${n} times`;
}

/**
 * A check in the words it was written in, from the catalogue or sheet only: never a call's value.
 *
 * @example
 * describeCheck({ field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'in_stock' } })
 * // 'quantity at_most from check_stock.in_stock'
 */
export function describeCheck(check: Check): string {
  if (check.from !== undefined) return `${check.field} ${check.op} from ${check.from.tool}.${check.from.field}`;
  const value = check.value;
  const shown = Array.isArray(value) ? `[${value.map(literalText).join(', ')}]` : value === undefined ? '' : literalText(value);
  return `${check.field} ${check.op} ${shown}`;
}

function literalText(literal: Literal): string {
  if ('decimal' in literal) return literal.decimal;
  if ('string' in literal) return literal.string;
  return String(literal.boolean);
}
