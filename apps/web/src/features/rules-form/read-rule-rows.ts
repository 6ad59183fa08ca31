// A sheet's rules as the form's rows: one per rule, each key's value as the form shows it, and the lines
// the rule spans so the engine's problems can be shown beside the rule at fault.
import type { SHEET_KEYS } from '@tollgate/engine';
import { isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import { isEmptyScalar, keyOf, readSheetDocument, type SheetDocument } from './sheet-document.ts';

/** The comparisons a `when` condition states, as the suffix of its key (docs/rule-sheets.md). */
export const COMPARISONS = ['over', 'under', 'at_least', 'at_most', 'is'] as const;
export type Comparison = (typeof COMPARISONS)[number];

export type SheetKey = (typeof SHEET_KEYS)[number];

/** One `when` condition: `amount_over: 200` is argument amount, comparison over, value `200`. */
export interface Condition {
  argument: string;
  /** Empty when the key names no comparison the compiler can state. */
  comparison: Comparison | '';
  /** The value as written in the YAML (`200.50`, `gold`, `"200"`). */
  value: string;
}

/** A rule's keys as the form edits them; absent keys are undefined. */
export interface RuleFields {
  action: string;
  requires?: string[];
  when?: Condition[];
  never?: boolean;
  requires_confirmation?: boolean;
  confirmation?: string;
  after?: string[];
  not_after?: string[];
  at_most?: string;
  /** Each check as written, such as `{field: quantity, at_most: 10}`. */
  check?: string[];
}

export interface RuleRow {
  /** The rule's place in the list under `rules:`, from 0. */
  index: number;
  /** The lines the rule spans, 1-based and inclusive. */
  lines: { from: number; to: number };
  /** The rule's text as written: a row whose text, place and lines are unchanged shows the same. */
  source: string;
  /** False when the item is not a block mapping: the form shows it but edits it only in the YAML. */
  editable: boolean;
  fields: RuleFields;
  /** Keys a rule does not have (the engine refuses them); the form offers to remove them. */
  otherKeys: string[];
}

export type RuleRowsRead = { ok: true; rows: RuleRow[]; rulesLine: number } | { ok: false; reason: string };

/**
 * Reads a sheet's rules into rows.
 *
 * @example
 * const read = readRuleRows('rules:\n  - action: refund\n    requires: [approved]\n');
 * read.ok && read.rows[0].fields // { action: 'refund', requires: ['approved'] }
 */
export function readRuleRows(text: string): RuleRowsRead {
  const read = readSheetDocument(text);
  if (!read.ok) return read;
  const { sheet } = read;
  const rulesLine = sheet.lineOf(sheet.rulesPair?.key?.range?.[0] ?? 0);
  const items = sheet.rules?.items ?? [];
  return { ok: true, rulesLine, rows: items.map((item, index) => rowOf(sheet, item, index)) };
}

function rowOf(sheet: SheetDocument, item: Node | null, index: number): RuleRow {
  const start = item?.range?.[0] ?? 0;
  const end = Math.max((item?.range?.[1] ?? start) - 1, start);
  const lines = { from: sheet.lineOf(start), to: sheet.lineOf(end) };
  const source = sheet.text.slice(start, end + 1);
  if (!isMap(item) || item.flow) return { index, lines, source, editable: false, fields: { action: '' }, otherKeys: [] };
  const fields: RuleFields = { action: '' };
  const otherKeys: string[] = [];
  for (const pair of (item as YAMLMap<Node, Node | null>).items) {
    const key = keyOf(pair);
    const value = pair.value;
    const written = isEmptyScalar(value) ? '' : sourceOf(sheet.text, value);
    if (key === 'action') fields.action = isScalar(value) && typeof value.value === 'string' ? value.value : written;
    else if (key === 'requires' || key === 'after' || key === 'not_after') fields[key] = namesOf(sheet.text, value);
    else if (key === 'when') fields.when = conditionsOf(sheet.text, value);
    else if (key === 'never' || key === 'requires_confirmation') fields[key] = isScalar(value) && value.value === true;
    else if (key === 'confirmation') fields.confirmation = isScalar(value) && typeof value.value === 'string' ? value.value : written;
    else if (key === 'at_most') fields.at_most = written;
    else if (key === 'check') fields.check = isSeq(value) ? value.items.map((i) => sourceOf(sheet.text, i as Node | null)) : [written];
    else otherKeys.push(key);
  }
  return { index, lines, source, editable: true, fields, otherKeys };
}

function sourceOf(text: string, node: Node | null | undefined): string {
  const range = node?.range;
  return range ? text.slice(range[0], range[1]) : '';
}

function namesOf(text: string, node: Node | null): string[] {
  if (isEmptyScalar(node)) return [];
  if (!isSeq(node)) return [sourceOf(text, node)];
  return node.items.map((i) => (isScalar(i) && typeof i.value === 'string' ? i.value : sourceOf(text, i as Node | null)));
}

function conditionsOf(text: string, node: Node | null): Condition[] {
  if (!isMap(node)) return [];
  return (node as YAMLMap<Node, Node | null>).items.map((pair) => ({
    ...splitConditionKey(keyOf(pair)),
    value: sourceOf(text, pair.value),
  }));
}

/**
 * A condition's key as argument and comparison; the longest suffix first, as the engine reads it.
 *
 * @example
 * splitConditionKey('amount_at_least') // { argument: 'amount', comparison: 'at_least' }
 */
export function splitConditionKey(key: string): { argument: string; comparison: Comparison | '' } {
  const byLength = [...COMPARISONS].sort((a, b) => b.length - a.length);
  const comparison = byLength.find((c) => key.endsWith(`_${c}`) && key.length > c.length + 1);
  return comparison ? { argument: key.slice(0, -(comparison.length + 1)), comparison } : { argument: key, comparison: '' };
}

/** The key a condition is written under. Example: `conditionKey({ argument: 'amount', comparison: 'over' }) // 'amount_over'`. */
export function conditionKey(condition: Pick<Condition, 'argument' | 'comparison'>): string {
  return condition.comparison === '' ? condition.argument : `${condition.argument}_${condition.comparison}`;
}
