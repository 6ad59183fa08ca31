// The argument axis of a subject: for every argument path the rules test, representative values, one
// per combination of condition results they give (true, false, unknown for each condition on the path),
// whose product across paths region-split.ts cuts only where rules tell calls apart. Where the split is not
// known to be complete, the space says why instead (docs/review.md, "Arguments").
import { CompiledCondition, type Condition } from '../conditions/condition.ts';
import { isDecimalValue, MAX_DECIMAL_DIGITS } from '../conditions/decimal.ts';
import type { Tri } from '../conditions/tri.ts';
import { JsonNumber, numberReadings } from '../source/json-number.ts';
import { parsePointer } from '../source/json-pointer.ts';
import { canonical, cutAxis, Exact } from './axis.ts';

/** One class of values at a path: the results its conditions give, and a value that gives them. */
export interface ArgumentClass {
  /** One letter per condition of the path: T true, F false, U unknown. */
  vector: string;
  /** The witness value; `missing` when the witness leaves the path out. */
  value: unknown;
  missing: boolean;
}

export interface PathSpace {
  path: string;
  tokens: string[];
  conditions: Condition[];
  compiled: CompiledCondition[];
  classes: ArgumentClass[];
}

export type ArgumentSpace = { complete: true; paths: PathSpace[] } | { complete: false; reason: string };

const LETTER = ['F', 'T', 'U'] as const;

/**
 * The argument space of the conditions (already deduplicated or not), with `reserved` the pointers the
 * tool itself reads (amount, currency), which no condition path may overlap for the split to be complete.
 */
export function argumentSpace(conditions: readonly Condition[], reserved: readonly string[]): ArgumentSpace {
  const byPath = new Map<string, Condition[]>();
  for (const c of conditions) {
    const list = byPath.get(c.path) ?? [];
    if (!list.some((d) => conditionKey(d) === conditionKey(c))) list.push(c);
    byPath.set(c.path, list);
  }
  const tokenLists = new Map([...byPath.keys()].map((p) => [p, parsePointer(p) ?? []]));
  for (const [path, tokens] of tokenLists) {
    if (tokens.includes('*'))
      return { complete: false, reason: `the condition on ${path} selects array elements, which are not enumerated` };
  }
  const all = [...[...tokenLists].map(([p, t]) => ({ p, t })), ...reserved.map((p) => ({ p, t: parsePointer(p) ?? [] }))];
  for (let i = 0; i < all.length; i++) {
    for (let j = i + 1; j < all.length; j++) {
      const a = all[i] as { p: string; t: string[] };
      const b = all[j] as { p: string; t: string[] };
      if (prefixOf(a.t, b.t) || prefixOf(b.t, a.t)) {
        return { complete: false, reason: `the paths ${a.p} and ${b.p} overlap, so their values are not independent` };
      }
    }
  }
  const paths: PathSpace[] = [];
  for (const [path, list] of byPath) {
    const tokens = tokenLists.get(path) as string[];
    const reps = representatives(list);
    if (reps === undefined) return { complete: false, reason: `the conditions on ${path} mix starts_with with numeric bounds` };
    const compiled = list.map((c) => new CompiledCondition(c));
    const classes: ArgumentClass[] = [];
    const seen = new Set<string>();
    for (const rep of reps) {
      const args = rep === MISSING_VALUE ? {} : setAt({}, tokens, rep);
      const vector = compiled.map((c) => LETTER[c.evaluate(args) as Tri]).join('');
      if (seen.has(vector)) continue;
      seen.add(vector);
      classes.push({ vector, value: rep === MISSING_VALUE ? undefined : rep, missing: rep === MISSING_VALUE });
    }
    paths.push({ path, tokens, conditions: list, compiled, classes });
  }
  return { complete: true, paths };
}

/** A condition's identity: its path, `for` and operands. */
export function conditionKey(c: Condition): string {
  return JSON.stringify(
    Object.keys(c)
      .sort()
      .map((k) => [k, (c as unknown as Record<string, unknown>)[k]]),
  );
}

function prefixOf(a: readonly string[], b: readonly string[]): boolean {
  return a.length <= b.length && a.every((t, i) => t === b[i]);
}

const MISSING_VALUE = Symbol('missing');

/**
 * Values that reach every combination of results of a path's conditions: missing, every eq/in operand,
 * every prefix and a longer string under it, a value in every piece of the numeric axis cut at the bounds
 * and numeric operands (as a decimal string in two spellings, and as a JSON number, exact or kept as
 * written, and kept numbers whose two readings straddle a threshold), null, true, false, an object and a
 * string nothing names. Undefined when starts_with meets numeric bounds on the path.
 */
function representatives(conditions: readonly Condition[]): unknown[] | undefined {
  const operands: unknown[] = [];
  const prefixes: string[] = [];
  const thresholds: string[] = [];
  for (const c of conditions) {
    if (c.eq !== undefined) operands.push(c.eq);
    if (c.in) operands.push(...c.in);
    if (c.starts_with) prefixes.push(...c.starts_with);
    for (const b of [c.gt, c.gte, c.lt, c.lte]) if (b !== undefined) thresholds.push(b);
  }
  if (prefixes.length > 0 && thresholds.length > 0) return undefined;
  const strings = new Set(operands.filter((o): o is string => typeof o === 'string'));
  const reps: unknown[] = [MISSING_VALUE, ...operands];
  for (const p of prefixes) {
    let longer = `${p}~`;
    while (strings.has(longer)) longer += '~';
    reps.push(p, longer);
  }
  reps.push(null, true, false, {}, freshString(strings, prefixes));
  const numbers = operands.filter((o): o is number => typeof o === 'number').map(String);
  if (thresholds.length > 0 || numbers.length > 0) {
    for (const { witness } of cutAxis([...thresholds, ...numbers], null)) {
      if (thresholds.length > 0) reps.push(witness, otherSpelling(witness));
      const n = Number(witness);
      reps.push(Number.isSafeInteger(n) && String(n) === witness ? n : new JsonNumber(witness));
      reps.push(new JsonNumber(otherSpelling(witness)));
    }
    for (const t of [...thresholds, ...numbers]) reps.push(...straddling(t));
  }
  return reps;
}

/** The same decimal spelt with one more fraction zero (`5` as `5.0`), when that stays valid. */
function otherSpelling(d: string): string {
  const longer = d.includes('.') ? `${d}0` : `${d}.0`;
  return isDecimalValue(longer, true) ? longer : d;
}

/** A string that equals no operand, starts with no prefix, and is no decimal. */
function freshString(strings: ReadonlySet<string>, prefixes: readonly string[]): string {
  for (let s = ''; ; s += '~') {
    if (!strings.has(s) && !prefixes.some((p) => s.startsWith(p))) return s;
  }
}

/**
 * Kept numbers written just above and just below a threshold that a reader into doubles reads as the
 * threshold itself, so comparisons with it are indeterminate (docs/policy.md, "Numbers in arguments").
 */
function straddling(threshold: string): JsonNumber[] {
  const t = canonical(threshold);
  const step = `0.${'0'.repeat(MAX_DECIMAL_DIGITS - 1)}1`;
  const out: JsonNumber[] = [];
  for (const sign of [1, -1]) {
    const written = sign > 0 ? addDecimal(t, step) : addDecimal(t, `-${step}`);
    const n = new JsonNumber(written);
    const readings = numberReadings(n);
    if (readings && readings.double !== readings.written) out.push(n);
  }
  return out;
}

function addDecimal(a: string, b: string): string {
  return canonical(new Exact(a).plus(b).toFixed());
}

/** Sets a value at a pointer, creating objects on the way (paths never overlap, so nothing is overwritten). */
export function setAt(root: Record<string, unknown>, tokens: readonly string[], value: unknown): Record<string, unknown> {
  let node = root;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i] as string;
    const next = node[token];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[token] = {};
    node = node[token] as Record<string, unknown>;
  }
  node[tokens[tokens.length - 1] as string] = value;
  return root;
}
