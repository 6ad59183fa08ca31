// The canonical rulebook: expressions normalised (double negation removed, all/any flattened, sorted
// and de-duplicated) and flows sorted, serialised with sorted keys, so equal rulebooks are equal bytes.
import { JsonNumber } from '../source/json-number.ts';
import type { Expr, Flow, Rulebook } from './types.ts';
import { RULEBOOK_FORMAT } from './types.ts';

/** Normalises an expression; `and`/`or` are commutative and idempotent, so their order never matters. */
export function canonicalExpr(expr: Expr): Expr {
  return normalise(expr, new Map(), new Map());
}

/**
 * `keys` holds the canonical JSON of each node this pass builds, made from its children's: sorting and
 * de-duplicating needs every child's JSON at every level, and serialising each subtree again at each
 * level above it was a sixth of a keystroke's compile of a 200-rule sheet. Leaves go through
 * canonicalJson, so the bytes are the same.
 */
function normalise(expr: Expr, keys: Map<Expr, string>, done: Map<Expr, Expr>): Expr {
  // A node shared in the input (the Colang front end inlines each computed context as one node) is
  // normalised once, so a guard naming a big context many times costs its size once.
  let out = done.get(expr);
  if (out === undefined) {
    out = normaliseNode(expr, keys, done);
    done.set(expr, out);
  }
  return out;
}

function normaliseNode(expr: Expr, keys: Map<Expr, string>, done: Map<Expr, Expr>): Expr {
  if ('not' in expr) {
    const inner = normalise(expr.not, keys, done);
    if ('not' in inner) return inner.not;
    const node: Expr = { not: inner };
    keys.set(node, `{"not":${keyOf(inner, keys)}}`);
    return node;
  }
  if ('all' in expr || 'any' in expr) {
    const key = 'all' in expr ? 'all' : 'any';
    const children = 'all' in expr ? expr.all : expr.any;
    const unique = new Map<string, Expr>();
    for (const item of children) {
      const child = normalise(item, keys, done);
      if (key in child) for (const part of (child as Record<string, Expr[]>)[key] as Expr[]) unique.set(keyOf(part, keys), part);
      else unique.set(keyOf(child, keys), child);
    }
    const sorted = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (sorted.length === 1) return (sorted[0] as [string, Expr])[1];
    const parts = sorted.map(([, e]) => e);
    const node: Expr = key === 'all' ? { all: parts } : { any: parts };
    keys.set(node, `{"${key}":[${sorted.map(([k]) => k).join(',')}]}`);
    return node;
  }
  return expr;
}

function keyOf(expr: Expr, keys: Map<Expr, string>): string {
  let key = keys.get(expr);
  if (key === undefined) {
    key = canonicalJson(expr);
    keys.set(expr, key);
  }
  return key;
}

/** Builds a canonical rulebook from flows in any order. */
export function canonicalRulebook(flows: readonly Flow[]): Rulebook {
  const sorted = [...flows]
    .map((f): Flow => ('refuse' in f ? { action: f.action, refuse: true } : { action: f.action, allow_when: canonicalExpr(f.allow_when) }))
    .sort((a, b) => (a.action < b.action ? -1 : a.action > b.action ? 1 : 0));
  return { format: RULEBOOK_FORMAT, flows: sorted };
}

/** JSON with object keys sorted at every level and no whitespace: the bytes two rulebooks are compared by. */
export function canonicalJson(value: unknown): string {
  // A number kept as written (from the exact reader) is its lexeme: the digest binds what the agent sent.
  if (value instanceof JsonNumber) return value.lexeme;
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The rulebook as the `rulebook.ir.json` file holds it: canonical, sorted keys, two-space indent. */
export function formatRulebook(rulebook: Rulebook): string {
  return `${JSON.stringify(JSON.parse(canonicalJson(rulebook)), null, 2)}\n`;
}

export type Equivalence = { equal: true } | { equal: false; difference: string; path: string };

/**
 * Compares two rulebooks for identity and names the first difference.
 *
 * @example
 * compareRulebooks(fromSheet, fromColang) // { equal: true }
 */
export function compareRulebooks(a: Rulebook, b: Rulebook): Equivalence {
  const left = new Map(canonicalRulebook(a.flows).flows.map((f) => [f.action, f]));
  const right = new Map(canonicalRulebook(b.flows).flows.map((f) => [f.action, f]));
  const actions = [...new Set([...left.keys(), ...right.keys()])].sort();
  for (const action of actions) {
    const x = left.get(action);
    const y = right.get(action);
    if (!x) return { equal: false, path: `/flows/${action}`, difference: `only the second rulebook has a flow for ${action}` };
    if (!y) return { equal: false, path: `/flows/${action}`, difference: `only the first rulebook has a flow for ${action}` };
    const d = firstDifference(x, y, `/flows/${action}`);
    if (d) return { equal: false, path: d.path, difference: `${action}: ${d.what}` };
  }
  return { equal: true };
}

function firstDifference(x: unknown, y: unknown, path: string): { path: string; what: string } | undefined {
  if (canonicalJson(x) === canonicalJson(y)) return undefined;
  if (Array.isArray(x) && Array.isArray(y)) {
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
      if (i >= x.length || i >= y.length)
        return { path: `${path}/${i}`, what: `one has ${x.length} items at ${path}, the other ${y.length}` };
      const d = firstDifference(x[i], y[i], `${path}/${i}`);
      if (d) return d;
    }
  }
  if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x) && !Array.isArray(y)) {
    const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])].sort();
    for (const k of keys) {
      const d = firstDifference((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], `${path}/${k}`);
      if (d) return d;
    }
  }
  return { path, what: `${canonicalJson(x) ?? 'nothing'} differs from ${canonicalJson(y) ?? 'nothing'} at ${path}` };
}
