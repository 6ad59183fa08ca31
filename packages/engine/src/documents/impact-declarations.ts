// What loosening a tool's declarations widens, shared by sheet rules and catalogue tools: a confirmation
// dropped, an order rule dropped, at_most raised or dropped, a check dropped or loosened.
import { compareDecimal } from '../conditions/decimal.ts';
import { canonicalJson } from '../rulebook/canonical.ts';
import { describeCheck } from '../rulebook/tool-check.ts';
import type { Check, Literal, ToolDeclarations } from '../rulebook/types.ts';

/**
 * The widenings from one set of declarations to another, without the subject's prefix.
 *
 * @example
 * declarationSubjects({ at_most: 1, after: ['charge_card'] }, { at_most: 3 })
 * // ['after charge_card dropped', 'at_most 1 -> 3']
 */
export function declarationSubjects(before: ToolDeclarations, after: ToolDeclarations): string[] {
  const out: string[] = [];
  if (before.confirmation !== undefined && after.confirmation === undefined) out.push('confirmation dropped');
  for (const key of ['after', 'not_after'] as const) {
    for (const tool of before[key] ?? []) if (!(after[key] ?? []).includes(tool)) out.push(`${key} ${tool} dropped`);
  }
  if (before.at_most !== undefined) {
    if (after.at_most === undefined) out.push('at_most dropped');
    else if (after.at_most > before.at_most) out.push(`at_most ${before.at_most} -> ${after.at_most}`);
  }
  out.push(...checkSubjects(before.checks ?? [], after.checks ?? []));
  return out;
}

/**
 * Checks are matched as written; of those left, one before and one after on the same field with the same
 * comparison are one check changed (flagged where it admits more), the rest before are dropped.
 */
function checkSubjects(before: readonly Check[], after: readonly Check[]): string[] {
  const left = [...after];
  const gone: Check[] = [];
  for (const c of before) {
    const i = left.findIndex((d) => canonicalJson(d) === canonicalJson(c));
    if (i >= 0) left.splice(i, 1);
    else gone.push(c);
  }
  const out: string[] = [];
  for (const c of gone) {
    const same = (d: Check) => d.field === c.field && d.op === c.op;
    const partners = left.filter(same);
    const partner = partners[0];
    if (partner && partners.length === 1 && gone.filter(same).length === 1) {
      left.splice(left.indexOf(partner), 1);
      out.push(...loosenedCheck(c, partner));
    } else out.push(`check ${describeCheck(c)} dropped`);
  }
  return out;
}

function loosenedCheck(before: Check, after: Check): string[] {
  const at = `check ${before.field} ${before.op}`;
  const b = before.value;
  const a = after.value;
  if (before.from || after.from || b === undefined || a === undefined) return [`check ${describeCheck(before)} -> ${describeCheck(after)}`];
  if (Array.isArray(b) && Array.isArray(a)) {
    const has = (list: Literal[], v: Literal) => list.some((x) => sameLiteral(x, v));
    // `in` admits more with more values; `not_in` admits more with fewer.
    if (before.op === 'in') return a.filter((v) => !has(b, v)).map((v) => `${at} + ${literalText(v)}`);
    return b.filter((v) => !has(a, v)).map((v) => `${at} - ${literalText(v)}`);
  }
  if (Array.isArray(b) || Array.isArray(a)) return [`check ${describeCheck(before)} -> ${describeCheck(after)}`];
  if ('decimal' in b && 'decimal' in a && before.op !== 'is' && before.op !== 'is_not') {
    const c = compareDecimal(a.decimal, b.decimal);
    const raised = before.op === 'under' || before.op === 'at_most';
    return (raised ? c > 0 : c < 0) ? [`${at} ${b.decimal} -> ${a.decimal}`] : [];
  }
  return sameLiteral(a, b) ? [] : [`${at} ${literalText(b)} -> ${literalText(a)}`];
}

function sameLiteral(a: Literal, b: Literal): boolean {
  if ('decimal' in a) return 'decimal' in b && compareDecimal(a.decimal, b.decimal) === 0;
  return canonicalJson(a) === canonicalJson(b);
}

function literalText(literal: Literal): string {
  if ('decimal' in literal) return literal.decimal;
  if ('string' in literal) return JSON.stringify(literal.string);
  return String(literal.boolean);
}
