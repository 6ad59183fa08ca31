// Reading the values of a rule's keys: name lists, `when` conditions, checks and literals, each problem
// reported at the item or key that has it (docs/rule-sheets.md).
import { isMap, isScalar, isSeq, type Node, type Scalar } from 'yaml';
import { normalizeDecimal } from '../conditions/decimal.ts';
import { readCheck } from '../rulebook/check.ts';
import type { Check, ComparisonOp, Literal } from '../rulebook/types.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { DecimalNumber } from '../source/yaml-text.ts';
import { MAX_LIST_NAMES, SHEET_LIMIT, type SheetCondition } from './sheet-model.ts';
import { keyName, type Refuse, type Span, spanOf } from './sheet-nodes.ts';

const ARGUMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Longest first, so `x_at_least` is not read as a `_least` of `x_at`. */
const SUFFIXES: [string, ComparisonOp, string][] = [
  ['_at_least', 'gte', 'at least'],
  ['_at_most', 'lte', 'at most'],
  ['_under', 'lt', 'under'],
  ['_over', 'gt', 'over'],
  ['_is', 'eq', 'is'],
];

export function isTrue(node: Node): boolean {
  return isScalar(node) && node.value === true;
}

export function plainString(node: Node): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

/** A flow list of names matching `pattern`; `at` is the list's span. */
export function nameList(node: Node, at: Span, refuse: Refuse, key: string, pattern: RegExp, what: string): string[] | undefined {
  if (!isSeq(node) || node.items.length === 0) {
    refuse(at, `${key} is a list on its line, such as [a, b]`);
    return undefined;
  }
  if (node.items.length > MAX_LIST_NAMES) {
    refuse(at, `${key} lists ${node.items.length} names; a list names at most ${MAX_LIST_NAMES}`, SHEET_LIMIT);
    return undefined;
  }
  // A set beside the list, so finding a name twice stays linear in the list's length.
  const names = new Set<string>();
  for (const item of node.items) {
    const name = isScalar(item) && typeof item.value === 'string' ? item.value : undefined;
    const itemAt = spanOf(item as Node | null, at[0]);
    if (name === undefined || !pattern.test(name)) {
      refuse(itemAt, `${key} lists ${JSON.stringify(isScalar(item) ? item.value : String(item))}, which is not ${what}`);
      return undefined;
    }
    if (names.has(name)) {
      refuse(itemAt, `${key} lists ${name} twice`);
      return undefined;
    }
    names.add(name);
  }
  return [...names];
}

export function readWhen(node: Node, at: Span, refuse: Refuse): SheetCondition[] | undefined {
  if (!isMap(node) || node.items.length === 0) {
    refuse(at, 'when is a mapping on its line of conditions, such as { amount_over: 200 }');
    return undefined;
  }
  if (node.items.length > MAX_LIST_NAMES) {
    refuse(at, `when holds ${node.items.length} conditions; it holds at most ${MAX_LIST_NAMES}`, SHEET_LIMIT);
    return undefined;
  }
  const conditions: SheetCondition[] = [];
  const seen = new Set<string>();
  let ok = true;
  for (const pair of node.items) {
    const key = keyName(pair);
    const keyAt = spanOf(pair.key as Node | null, at[0]);
    // Two values for one condition (`{region_is: EU, region_is: US}`): which one counts would be a guess,
    // and keeping both states a condition that never holds, so the requirement would never apply.
    if (seen.has(key)) {
      refuse(keyAt, `when names ${key} twice: which one counts would be a guess`);
      ok = false;
      continue;
    }
    seen.add(key);
    const suffix = SUFFIXES.find(([s]) => key.endsWith(s) && key.length > s.length);
    const arg = suffix ? key.slice(0, -suffix[0].length) : '';
    if (!suffix || !ARGUMENT.test(arg)) {
      refuse(keyAt, `${key} states no comparison the compiler can state: write <argument>_over, _under, _at_least, _at_most or _is`);
      ok = false;
      continue;
    }
    const [, op, words] = suffix;
    const valueNode = pair.value as Node | null;
    const valueAt = spanOf(valueNode, keyAt[1]);
    const value = literalOf(valueNode);
    if (value === undefined && isScalar(valueNode) && typeof valueNode.value === 'number') {
      refuse(
        valueAt,
        `${key}: ${valueNode.source} is not a number the compiler can state exactly; write plain digits such as 200 or 99.50`,
      );
      ok = false;
    } else if (value === undefined) {
      refuse(valueAt, `${key} compares with something that is not a number, a string or true/false`);
      ok = false;
    } else if (op !== 'eq' && !('decimal' in value)) {
      refuse(valueAt, `${key} compares a number with ${describeLiteral(value)}, which is not one: "${words}" needs a number such as 200`);
      ok = false;
    } else conditions.push({ arg, op, value });
  }
  return ok ? conditions : undefined;
}

function describeLiteral(value: Literal): string {
  return 'string' in value ? `the string "${value.string}"` : 'boolean' in value ? String(value.boolean) : value.decimal;
}

/** A scalar as an exact literal: plain numbers from their written digits, never through a float. */
function literalOf(node: Node | null): Literal | undefined {
  if (!isScalar(node)) return undefined;
  const scalar = node as Scalar;
  if (typeof scalar.value === 'boolean') return { boolean: scalar.value };
  if (typeof scalar.value === 'string') return { string: scalar.value };
  if (typeof scalar.value === 'number') {
    const source = scalar.source ?? '';
    const m = /^-?(?:0|[1-9][0-9]*)(?:\.([0-9]+))?$/.exec(source);
    if (!m || (m[1]?.length ?? 0) > 18) return undefined;
    return { decimal: normalizeDecimal(source) };
  }
  return undefined;
}

export function readChecks(node: Node, at: Span, refuse: Refuse): Check[] | undefined {
  if (!isSeq(node) || node.items.length === 0) {
    refuse(at, 'check is a list on its line of conditions, such as [{field: quantity, at_most: 10}]');
    return undefined;
  }
  if (node.items.length > MAX_LIST_NAMES) {
    refuse(at, `check lists ${node.items.length} conditions; it lists at most ${MAX_LIST_NAMES}`, SHEET_LIMIT);
    return undefined;
  }
  const checks: Check[] = [];
  let ok = true;
  node.items.forEach((item, i) => {
    const problems: Diagnostic[] = [];
    const itemAt = spanOf(item as Node | null, at[0]);
    const twice = repeatedKey(item as Node | null);
    if (twice !== undefined) {
      refuse(itemAt, `check ${i + 1} names ${twice} twice: which one counts would be a guess`);
      ok = false;
      return;
    }
    const check = readCheck(plainValue(item as Node | null), `/check/${i}`, problems);
    for (const p of problems) refuse(itemAt, `check ${i + 1}: ${p.message}`);
    if (check && problems.length === 0) checks.push(check);
    else ok = false;
  });
  return ok ? checks : undefined;
}

/** A key a mapping (at any depth) names twice, if any: YAML readers would keep only one. */
function repeatedKey(node: Node | null): string | undefined {
  if (isMap(node)) {
    const seen = new Set<string>();
    for (const pair of node.items) {
      const key = keyName(pair);
      if (seen.has(key)) return key;
      seen.add(key);
      const inner = repeatedKey(pair.value as Node | null);
      if (inner !== undefined) return inner;
    }
  }
  if (isSeq(node))
    for (const item of node.items) {
      const inner = repeatedKey(item as Node | null);
      if (inner !== undefined) return inner;
    }
  return undefined;
}

/** The names of a flow list, for cross-checks between keys (empty when it is not one). */
export function otherNames(node: Node | undefined): string[] {
  return isSeq(node) ? node.items.map((i) => (isScalar(i) ? String(i.value) : '')).filter((n) => n !== '') : [];
}

/** A flow collection as plain values, numbers kept exact (DecimalNumber for fractions). */
function plainValue(node: Node | null): unknown {
  if (node === null) return null;
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) out[keyName(pair)] = plainValue(pair.value as Node | null);
    return out;
  }
  if (isSeq(node)) return node.items.map((i) => plainValue(i as Node | null));
  if (isScalar(node)) {
    if (typeof node.value !== 'number') return node.value;
    const source = node.source ?? '';
    if (/^-?(?:0|[1-9][0-9]*)$/.test(source) && Number.isSafeInteger(Number(source))) return Number(source);
    if (/^-?(?:0|[1-9][0-9]*)\.[0-9]+$/.test(source)) return new DecimalNumber(source);
    return Number.NaN;
  }
  return undefined;
}
