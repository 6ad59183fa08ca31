// What a rule sheet edit widens, rule by rule (by action): a rule removed, never dropped, a required
// context dropped, a `when` narrowed so the requirement applies to fewer calls, or a declaration loosened.
import { compareDecimal } from '../conditions/decimal.ts';
import type { ComparisonOp, Literal } from '../rulebook/types.ts';
import { readSheet, type Sheet, type SheetCondition, type SheetRule } from '../sheet/read-sheet.ts';
import { declarationSubjects } from './impact-declarations.ts';
import type { Impact } from './types.ts';
import { impactOf } from './types.ts';

const SUFFIX: Record<ComparisonOp, string> = { gt: '_over', lt: '_under', gte: '_at_least', lte: '_at_most', eq: '_is' };

/**
 * Compares a new sheet with the running one. Every key of a sheet restricts, so a first sheet widens nothing.
 *
 * @example
 * analyzeSheetImpact('rules:\n  - action: refund_card\n    requires: [supervisor_approved]\n    when: { amount_over: 200 }\n',
 *   'rules:\n  - action: refund_card\n    requires: [supervisor_approved]\n    when: { amount_over: 500 }\n')
 * // { widensSecurity: true, widenedSubjects: ['rules/refund_card when amount_over 200 -> 500'] }
 */
export function analyzeSheetImpact(runningText: string | undefined, newText: string): Impact {
  const after = readSheet(newText);
  if (!after.ok || runningText === undefined) return impactOf([]);
  const before = readSheet(runningText);
  if (!before.ok) return impactOf([]);
  return impactOf(sheetSubjects(before.sheet, after.sheet));
}

/**
 * Every widening from one sheet to another, in the running sheet's rule order.
 *
 * @example
 * sheetSubjects(running, { ...running, rules: [] }) // ['rules/refund_card removed', ...]
 */
export function sheetSubjects(before: Sheet, after: Sheet): string[] {
  const next = new Map(after.rules.map((r) => [r.action, r]));
  const out: string[] = [];
  for (const rule of before.rules) {
    const now = next.get(rule.action);
    const prefix = `rules/${rule.action}`;
    if (!now) out.push(`${prefix} removed`);
    else out.push(...ruleSubjects(rule, now).map((s) => `${prefix} ${s}`));
  }
  return out;
}

function ruleSubjects(before: SheetRule, after: SheetRule): string[] {
  // never refuses every call: nothing beside it can loosen anything.
  if (after.never) return [];
  if (before.never) return ['never dropped'];
  const out: string[] = [];
  const required = after.requires ?? [];
  for (const context of before.requires ?? []) if (!required.includes(context)) out.push(`requires ${context} dropped`);
  if (before.requires && required.length > 0) out.push(...whenSubjects(before.when ?? [], after.when ?? []));
  out.push(...declarationSubjects(before, after));
  return out;
}

/**
 * A requirement applies where every `when` condition holds; the new `when` narrows it wherever one of its
 * conditions does not follow from the running `when`.
 */
function whenSubjects(before: readonly SheetCondition[], after: readonly SheetCondition[]): string[] {
  const out: string[] = [];
  for (const c of after) {
    if (impliedBy(before, c)) continue;
    const key = `${c.arg}${SUFFIX[c.op]}`;
    const was = before.find((b) => b.arg === c.arg && b.op === c.op);
    out.push(was ? `when ${key} ${literalText(was.value)} -> ${literalText(c.value)}` : `when ${key} ${literalText(c.value)} added`);
  }
  return out;
}

/** Whether every call the conditions `all` hold for also satisfies `c` (arguments compared exactly). */
function impliedBy(all: readonly SheetCondition[], c: SheetCondition): boolean {
  const same = all.filter((b) => b.arg === c.arg);
  if (!('decimal' in c.value))
    return same.some((b) => b.op === 'eq' && !('decimal' in b.value) && literalText(b.value) === literalText(c.value));
  const v = c.value.decimal;
  // The tightest bounds the running conditions put on the argument.
  let lower: { value: string; inclusive: boolean } | undefined;
  let upper: { value: string; inclusive: boolean } | undefined;
  for (const b of same) {
    if (!('decimal' in b.value)) continue;
    const d = b.value.decimal;
    if (b.op === 'gt' || b.op === 'gte' || b.op === 'eq') lower = tighterLower(lower, { value: d, inclusive: b.op !== 'gt' });
    if (b.op === 'lt' || b.op === 'lte' || b.op === 'eq') upper = tighterUpper(upper, { value: d, inclusive: b.op !== 'lt' });
  }
  const above = (strict: boolean) =>
    lower !== undefined && (compareDecimal(lower.value, v) > 0 || (compareDecimal(lower.value, v) === 0 && (!strict || !lower.inclusive)));
  const below = (strict: boolean) =>
    upper !== undefined && (compareDecimal(upper.value, v) < 0 || (compareDecimal(upper.value, v) === 0 && (!strict || !upper.inclusive)));
  switch (c.op) {
    case 'gt':
      return above(true);
    case 'gte':
      return above(false);
    case 'lt':
      return below(true);
    case 'lte':
      return below(false);
    default:
      // Only a single point, v itself, always equals v.
      return (
        lower?.inclusive === true &&
        upper?.inclusive === true &&
        compareDecimal(lower.value, v) === 0 &&
        compareDecimal(upper.value, v) === 0
      );
  }
}

type Side = { value: string; inclusive: boolean };

function tighterLower(a: Side | undefined, b: Side): Side {
  if (!a) return b;
  const c = compareDecimal(a.value, b.value);
  return c > 0 || (c === 0 && !a.inclusive) ? a : b;
}

function tighterUpper(a: Side | undefined, b: Side): Side {
  if (!a) return b;
  const c = compareDecimal(a.value, b.value);
  return c < 0 || (c === 0 && !a.inclusive) ? a : b;
}

function literalText(value: Literal): string {
  if ('decimal' in value) return value.decimal;
  if ('string' in value) return JSON.stringify(value.string);
  return String(value.boolean);
}
