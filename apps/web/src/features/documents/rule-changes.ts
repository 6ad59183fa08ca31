// A policy change rule by rule: the rules added, removed, changed (same id, other content) and unchanged between
// two versions, each with the decision changes that name it (the impact preview's entries, docs/review.md).
import { isJsonNumber, readJsonText } from '@tollgate/engine/source';
import type { DecisionDiffEntry } from './api/types.ts';

/** A policy's rule: its id and everything it says. */
export interface PolicyRule {
  id: string;
  value: unknown;
}

export type RuleStatus = 'added' | 'removed' | 'changed' | 'unchanged';

export interface RuleChange {
  id: string;
  status: RuleStatus;
  /** The entries whose outcomes (from or to) are decided by the rule, or whose region depends on it. */
  decisions: DecisionDiffEntry[];
}

export type RuleComparison = Record<RuleStatus, RuleChange[]>;

/**
 * The rules of a policy text, in their order: the members of `rules` that have a string id. Null when the text
 * is not a JSON object, so the page says the rules cannot be compared rather than that none changed.
 *
 * @example
 * rulesOf('{"rules": [{"id": "a", "effect": "allow"}]}') // [{ id: 'a', value: { id: 'a', effect: 'allow' } }]
 */
export function rulesOf(text: string): PolicyRule[] | null {
  const read = readJsonText(text);
  if (!read.ok || !isObject(read.value)) return null;
  const rules = read.value.rules;
  if (!Array.isArray(rules)) return [];
  return rules.flatMap((rule) => (isObject(rule) && typeof rule.id === 'string' ? [{ id: rule.id, value: rule }] : []));
}

/**
 * Compares two versions' rules by id. Every id of either version lands in exactly one list: `added` (only in
 * `to`), `removed` (only in `from`), `changed` (in both, saying something else) or `unchanged`; within a list, in
 * the order the rules come in `to` (then `from`). Each names the `entries` that name the rule, so an unchanged
 * rule that decides other calls now (another rule moved around it) shows that too.
 *
 * @example
 * compareRules([{ id: 'a', value: 1 }], [{ id: 'a', value: 2 }, { id: 'b', value: 3 }], [])
 * // { added: [{ id: 'b', ... }], removed: [], changed: [{ id: 'a', ... }], unchanged: [] }
 */
export function compareRules(
  from: readonly PolicyRule[],
  to: readonly PolicyRule[],
  entries: readonly DecisionDiffEntry[],
): RuleComparison {
  const before = groupById(from);
  const after = groupById(to);
  const out: RuleComparison = { added: [], removed: [], changed: [], unchanged: [] };
  for (const id of new Set([...after.keys(), ...before.keys()])) {
    const a = before.get(id);
    const b = after.get(id);
    const status: RuleStatus = a === undefined ? 'added' : b === undefined ? 'removed' : sameValue(a, b) ? 'unchanged' : 'changed';
    out[status].push({ id, status, decisions: entries.filter((entry) => namesRule(entry, id)) });
  }
  return out;
}

/** Whether a decision change is decided by the rule on either side, or depends on it. */
export function namesRule(entry: DecisionDiffEntry, id: string): boolean {
  return entry.kind === 'change' ? entry.from.rule === id || entry.to.rule === id : entry.rules.includes(id);
}

/** The values of each id, in order: a version that repeats an id (the validator refuses it) still compares whole. */
function groupById(rules: readonly PolicyRule[]): Map<string, unknown[]> {
  const groups = new Map<string, unknown[]>();
  for (const rule of rules) groups.set(rule.id, [...(groups.get(rule.id) ?? []), rule.value]);
  return groups;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isJsonNumber(value);
}

/** Equal as JSON values, whatever the members' order; kept numbers by their lexeme, as the reader kept them. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (isJsonNumber(a) || isJsonNumber(b)) return isJsonNumber(a) && isJsonNumber(b) && a.lexeme === b.lexeme;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (isObject(a) || isObject(b)) {
    if (!isObject(a) || !isObject(b)) return false;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return a === b;
}
