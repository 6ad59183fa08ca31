// Form edits applied to a sheet's YAML text: each replaces, inserts or deletes only the text of the node
// it touches (located by the yaml package's source ranges), so comments, blank lines and rule order stay.
import { SHEET_KEYS } from '@tollgate/engine';
import { isMap, type Node, type Pair, type YAMLMap } from 'yaml';
import { type Condition, conditionKey } from './read-rule-rows.ts';
import { isEmptyScalar, keyOf, lineEnd, lineStart, readSheetDocument, type SheetDocument } from './sheet-document.ts';
import { type FlowValue, flowText, readFlowValue, scalarOf } from './yaml-flow-text.ts';

/** One key of a rule set to a new value; an empty value (no names, false, '') removes the key. */
export type FieldEdit =
  | { key: 'action' | 'confirmation' | 'at_most'; value: string }
  | { key: 'requires' | 'after' | 'not_after'; value: string[] }
  | { key: 'when'; value: Condition[] }
  | { key: 'never' | 'requires_confirmation'; value: boolean }
  | { key: 'check'; value: string[] };

export type EditResult = { ok: true; text: string } | { ok: false; reason: string };

/** The order keys are inserted in, so a rule built by the form reads like the docs' examples. */
const KEY_ORDER: readonly string[] = ['action', ...SHEET_KEYS];

/**
 * Sets (or, for an empty value, removes) one key of the rule at `index`.
 *
 * @example
 * setRuleField('rules:\n  - action: a # the first\n', 0, { key: 'at_most', value: '3' })
 * // { ok: true, text: 'rules:\n  - action: a # the first\n    at_most: 3\n' }
 */
export function setRuleField(text: string, index: number, edit: FieldEdit): EditResult {
  const rule = ruleAt(text, index);
  if (!rule.ok) return rule;
  const value = valueTextOf(edit);
  if (!value.ok) return value;
  const { sheet, map } = rule;
  const pair = map.items.find((p) => keyOf(p) === edit.key);
  if (value.text === undefined) return { ok: true, text: pair ? deletePair(sheet, map, pair) : text };
  if (pair) return { ok: true, text: replaceValue(sheet, pair, value.text) };
  return { ok: true, text: insertPair(sheet, map, edit.key, value.text) };
}

/**
 * Removes a key the rule has, whatever it is (a key the engine refuses, such as `colour`, included).
 *
 * @example
 * removeRuleKey('rules:\n  - action: a\n    colour: blue\n    never: true\n', 0, 'colour').text
 * // 'rules:\n  - action: a\n    never: true\n'
 */
export function removeRuleKey(text: string, index: number, key: string): EditResult {
  const rule = ruleAt(text, index);
  if (!rule.ok) return rule;
  const pair = rule.map.items.find((p) => keyOf(p) === key);
  if (!pair) return { ok: true, text };
  if (rule.map.items.length === 1) return { ok: false, reason: `${key} is the rule's only key; remove the rule instead` };
  return { ok: true, text: deletePair(rule.sheet, rule.map, pair) };
}

/**
 * Adds a rule for `action` at the end of the list.
 *
 * @example
 * addRule('rules: []\n', 'refund').text // 'rules:\n  - action: refund\n'
 */
export function addRule(text: string, action: string): EditResult {
  const read = readSheetDocument(text);
  if (!read.ok) return read;
  const { sheet } = read;
  const item = `- action: ${flowText(action)}`;
  const last = sheet.rules?.items.at(-1);
  if (sheet.rules && last) {
    const dash = sheet.rules.range?.[0] ?? 0;
    const indent = ' '.repeat(dash - lineStart(text, dash));
    const at = lineEnd(text, contentEnd(last));
    return { ok: true, text: `${text.slice(0, at)}\n${indent}${item}${text.slice(at)}` };
  }
  // An empty list (`rules:` or `rules: []`) becomes a block list of one.
  const pair = sheet.rulesPair as Pair<Node, Node | null>;
  return { ok: true, text: replaceAfterKey(sheet, pair, `:\n  ${item}`) };
}

/**
 * Removes the rule at `index` with its lines; the last rule leaves `rules: []`, an empty sheet.
 *
 * @example
 * removeRule('rules:\n  - action: a\n    never: true\n  - action: b\n    at_most: 1\n', 0).text
 * // 'rules:\n  - action: b\n    at_most: 1\n'
 */
export function removeRule(text: string, index: number): EditResult {
  const read = readSheetDocument(text);
  if (!read.ok) return read;
  const { sheet } = read;
  const items = sheet.rules?.items ?? [];
  const item = items[index];
  if (item === undefined || item === null) return { ok: false, reason: `there is no rule ${index + 1}` };
  if (items.length === 1) {
    // The list's own range runs past its last newline; the text from there on stays.
    const keyEnd = sheet.rulesPair?.key.range?.[1] ?? 0;
    return { ok: true, text: `${text.slice(0, keyEnd)}: []${text.slice(lineEnd(text, contentEnd(item)))}` };
  }
  const from = withCommentsAbove(text, lineStart(text, item.range?.[0] ?? 0));
  const to = Math.min(lineEnd(text, contentEnd(item)) + 1, text.length);
  return { ok: true, text: text.slice(0, from) + text.slice(to) };
}

/** Moves a rule's first line up over the comment lines just above it, written at its dash's indent: they speak of it. */
function withCommentsAbove(text: string, dashLineStart: number): number {
  const indent = /^ */.exec(text.slice(dashLineStart))?.[0] ?? '';
  let from = dashLineStart;
  while (from > 0) {
    const above = lineStart(text, from - 1);
    if (!new RegExp(`^${indent}#`).test(text.slice(above, from - 1))) break;
    from = above;
  }
  return from;
}

function ruleAt(
  text: string,
  index: number,
): { ok: true; sheet: SheetDocument; map: YAMLMap<Node, Node | null> } | { ok: false; reason: string } {
  const read = readSheetDocument(text);
  if (!read.ok) return read;
  const item = read.sheet.rules?.items[index];
  if (!isMap(item) || item.flow) return { ok: false, reason: `rule ${index + 1} is not a block mapping the form can edit` };
  return { ok: true, sheet: read.sheet, map: item as YAMLMap<Node, Node | null> };
}

/** The YAML text for an edit's value, or undefined when the value is empty and the key goes. */
function valueTextOf(edit: FieldEdit): { ok: true; text: string | undefined } | { ok: false; reason: string } {
  switch (edit.key) {
    case 'action':
    case 'confirmation':
      return { ok: true, text: edit.value.trim() === '' ? undefined : flowText(edit.value.trim()) };
    case 'at_most':
      return { ok: true, text: edit.value.trim() === '' ? undefined : flowText(scalarOf(edit.value)) };
    case 'requires':
    case 'after':
    case 'not_after': {
      const names = edit.value.map((n) => n.trim()).filter((n) => n !== '');
      return { ok: true, text: names.length === 0 ? undefined : flowText(names) };
    }
    case 'never':
    case 'requires_confirmation':
      return { ok: true, text: edit.value ? 'true' : undefined };
    case 'when': {
      if (edit.value.length === 0) return { ok: true, text: undefined };
      const conditions: { [key: string]: FlowValue } = {};
      for (const c of edit.value) conditions[conditionKey(c)] = scalarOf(c.value);
      return { ok: true, text: flowText(conditions) };
    }
    case 'check': {
      if (edit.value.length === 0) return { ok: true, text: undefined };
      const checks: FlowValue[] = [];
      for (const [i, typed] of edit.value.entries()) {
        const read = readFlowValue(typed);
        if (!read.ok) return { ok: false, reason: `check ${i + 1}: ${read.reason}` };
        checks.push(read.value);
      }
      return { ok: true, text: flowText(checks) };
    }
  }
}

/** Where a node's own text ends (its trailing comment and newline not included). */
function contentEnd(node: Node | null): number {
  const range = node?.range;
  return range ? Math.max(range[1] - 1, range[0]) : 0;
}

function replaceValue(sheet: SheetDocument, pair: Pair<Node, Node | null>, valueText: string): string {
  const { text } = sheet;
  const value = pair.value;
  const keyLine = sheet.lineOf(pair.key.range?.[0] ?? 0);
  const range = value?.range;
  if (range && !isEmptyScalar(value) && sheet.lineOf(range[0]) === keyLine) {
    return text.slice(0, range[0]) + valueText + text.slice(range[1]);
  }
  // No value, or one on the line below: the new value goes on the key's line, as the subset requires.
  return replaceAfterKey(sheet, pair, `: ${valueText}`);
}

/** Replaces from the end of a pair's key through its value (or its colon, when it has none). */
function replaceAfterKey(sheet: SheetDocument, pair: Pair<Node, Node | null>, replacement: string): string {
  const { text } = sheet;
  const keyEnd = pair.key.range?.[1] ?? 0;
  const colon = text.indexOf(':', keyEnd);
  const end = isEmptyScalar(pair.value) ? colon + 1 : (pair.value?.range?.[1] ?? colon + 1);
  return text.slice(0, keyEnd) + replacement + text.slice(end);
}

function insertPair(sheet: SheetDocument, map: YAMLMap<Node, Node | null>, key: string, valueText: string): string {
  const { text } = sheet;
  const rank = rankOf(key);
  const before = map.items.filter((p) => rankOf(keyOf(p)) <= rank).at(-1) ?? map.items.at(-1);
  const firstKey = map.items[0]?.key.range?.[0] ?? map.range?.[0] ?? 0;
  const indent = ' '.repeat(firstKey - lineStart(text, firstKey));
  const after = before ? contentEnd(before.value ?? before.key) : contentEnd(map);
  const at = lineEnd(text, after);
  return `${text.slice(0, at)}\n${indent}${key}: ${valueText}${text.slice(at)}`;
}

function deletePair(sheet: SheetDocument, map: YAMLMap<Node, Node | null>, pair: Pair<Node, Node | null>): string {
  const { text } = sheet;
  const keyStart = pair.key.range?.[0] ?? 0;
  const next = map.items[map.items.indexOf(pair) + 1];
  // The first key shares its line with the item's dash: the next key moves up onto that line instead.
  if (map.items[0] === pair && next) return text.slice(0, keyStart) + text.slice(next.key.range?.[0] ?? keyStart);
  const from = lineStart(text, keyStart);
  const to = Math.min(lineEnd(text, contentEnd(pair.value ?? pair.key)) + 1, text.length);
  return text.slice(0, from) + text.slice(to);
}

function rankOf(key: string): number {
  const rank = KEY_ORDER.indexOf(key);
  return rank === -1 ? Number.POSITIVE_INFINITY : rank;
}
