// Reading one rule of a sheet: its keys, each on one line, and their values (docs/rule-sheets.md).
// Every problem is reported at the key or value that has it.
import { isAlias, isMap, isScalar, isSeq, type Node, type YAMLMap } from 'yaml';
import { IDENTIFIER } from '../colang/parse.ts';
import { TOOL_NAME } from '../policy/tool.ts';
import { isTrue, nameList, otherNames, plainString, readChecks, readWhen } from './rule-values.ts';
import { MAX_CONFIRMATION, MAX_VALUE_DEPTH, SHEET_KEYS, SHEET_LIMIT, type SheetRule } from './sheet-model.ts';
import { depthOf, hasProperties, keyName, type Refuse, type Span, spanOf, usesAnchorAliasOrTag } from './sheet-nodes.ts';

const SHEET_KEY_SET: ReadonlySet<string> = new Set(SHEET_KEYS);

/** A rule read, with the span of its action's name (where a second rule for the action is reported). */
export interface ReadRule {
  rule: SheetRule;
  actionAt: Span;
}

interface KeyValue {
  node: Node;
  line: number;
  keyAt: Span;
  at: Span;
}

/**
 * Reads one item of `rules:`; every problem goes to `refuse`. Returns undefined when the rule has no
 * readable action (its other problems are reported all the same).
 */
export function readRule(node: Node | null, lineOf: (o: number | undefined) => number, refuse: Refuse): ReadRule | undefined {
  const ruleAt = spanOf(node);
  if (!isMap(node) || node.flow) {
    refuse(ruleAt, 'a rule is a block mapping: "- action: NAME" then its keys, one per line');
    return undefined;
  }
  if (node.anchor !== undefined || node.tag !== undefined) {
    refuse(ruleAt, 'the rule uses an anchor or tag, which a sheet does not read');
    return undefined;
  }
  const before = { count: 0 };
  const counted: Refuse = (at, reason, code) => {
    before.count++;
    refuse(at, reason, code);
  };
  const values = readKeys(node, lineOf, counted);
  const named = new Set(values.named);

  const action = values.read.get('action');
  if (!action) {
    if (before.count === 0) refuse(ruleAt, 'a rule names its action: "- action: NAME", a tool of your catalogue');
    return undefined;
  }
  const name = plainString(action.node);
  if (name === undefined || !TOOL_NAME.test(name)) {
    refuse(action.at, 'action names a tool of the catalogue: letters, digits, _, . and -');
    return undefined;
  }
  const rule: SheetRule = { action: name, line: action.line };
  const keys = [...values.read.keys()].filter((k) => k !== 'action');
  const saysNothing = `the rule for \`${name}\` says nothing: add one or more of ${SHEET_KEYS.join(', ')}`;
  if (keys.length === 0 && before.count === 0) refuse(action.at, saysNothing);

  for (const key of keys) {
    const { node: value, keyAt, at } = values.read.get(key) as KeyValue;
    switch (key) {
      case 'never':
        if (!isTrue(value)) counted(at, 'never: true is the only form; to let the action run, remove the key');
        else if (keys.length > 1)
          counted(
            keyAt,
            `never with ${keys.filter((k) => k !== 'never').join(', ')} beside it: an action that never runs has no other condition`,
          );
        else rule.never = true;
        break;
      case 'requires': {
        const names = nameList(value, at, counted, 'requires', IDENTIFIER, 'a context name: lowercase letters, digits and _');
        if (names) rule.requires = names;
        break;
      }
      case 'after':
      case 'not_after': {
        const names = nameList(value, at, counted, key, TOOL_NAME, 'a tool name');
        const other = key === 'after' ? 'not_after' : 'after';
        // One set of the other list's names, so the cross-check is linear in both lists.
        const others = new Set(otherNames(values.read.get(other)?.node));
        const both = names?.find((n) => others.has(n));
        if (key === 'after' && names?.includes(name)) counted(at, `after names \`${name}\` itself: its first call could never run`);
        else if (both && key === 'not_after') counted(at, `\`${both}\` is in both after and not_after: the action could never run`);
        else if (names) rule[key] = names;
        break;
      }
      case 'when': {
        const conditions = readWhen(value, at, counted);
        if (!named.has('requires')) counted(keyAt, 'when on a rule that requires nothing: the conditions say when the requirements apply');
        else if (conditions) rule.when = conditions;
        break;
      }
      case 'requires_confirmation':
        if (!isScalar(value) || typeof value.value !== 'boolean') counted(at, 'requires_confirmation is true or false');
        else if (!value.value && values.read.has('confirmation')) {
          counted(keyAt, 'requires_confirmation: false beside confirmation words: say one thing; remove one of the two');
        } else if (value.value && rule.confirmation === undefined) rule.confirmation = `Confirm the call to ${name}?`;
        break;
      case 'confirmation': {
        const words = isScalar(value) && typeof value.value === 'string' ? value.value.trim() : undefined;
        if (!words) counted(at, 'confirmation is the words the person is asked, such as "Close this account?"');
        else if (words.length > MAX_CONFIRMATION)
          counted(
            at,
            `confirmation is ${words.length} characters; the words a person is asked are at most ${MAX_CONFIRMATION}`,
            SHEET_LIMIT,
          );
        else rule.confirmation = words;
        break;
      }
      case 'at_most': {
        const n = isScalar(value) && typeof value.value === 'number' && /^[1-9][0-9]*$/.test(value.source ?? '') ? value.value : undefined;
        if (n === undefined || !Number.isSafeInteger(n)) counted(at, 'at_most is a positive whole number of calls per session');
        else rule.at_most = n;
        break;
      }
      case 'check': {
        const checks = readChecks(value, at, counted);
        if (checks) rule.checks = checks;
        break;
      }
    }
  }
  // `requires_confirmation: false` and nothing else compiles to nothing, yet names the action, which
  // would silence write_ungoverned for it: a rule that says nothing is refused, whatever its keys.
  if (before.count === 0 && keys.length > 0 && Object.keys(rule).every((k) => k === 'action' || k === 'line'))
    refuse(action.at, saysNothing);
  return { rule, actionAt: action.at };
}

/**
 * The rule's keys with their values, each key one of the sheet's and its value on the key's line. Every
 * key the rule gives is in `named`, its value read or refused: a refused value still says the key is there.
 */
function readKeys(
  node: YAMLMap,
  lineOf: (o: number | undefined) => number,
  refuse: Refuse,
): { read: Map<string, KeyValue>; named: Set<string> } {
  const read = new Map<string, KeyValue>();
  const named = new Set<string>();
  for (const pair of node.items) {
    const key = keyName(pair);
    const keyNode = pair.key as Node | null;
    const keyAt = spanOf(keyNode);
    const line = lineOf(keyAt[0]);
    if (!isScalar(keyNode) || keyNode.type !== 'PLAIN' || hasProperties(keyNode)) {
      refuse(keyAt, 'a key is a plain word, with no anchor or tag');
      continue;
    }
    if (key !== 'action' && !SHEET_KEY_SET.has(key)) {
      refuse(keyAt, `"${key}" is not a key of a rule: use action, ${SHEET_KEYS.join(', ')}`);
      continue;
    }
    if (named.has(key)) {
      refuse(keyAt, `${key} is given twice in one rule`);
      continue;
    }
    named.add(key);
    const value = pair.value as Node | null;
    if (value === null || (isScalar(value) && value.value === null && value.source === '')) {
      refuse(keyAt, `${key} has no value: write it on the key's line`);
      continue;
    }
    const at = spanOf(value, keyAt[1]);
    if (isSeq(value) && !value.flow) {
      refuse(keyAt, `${key} holds a block list: write it as a flow list on the key's line, such as [a, b]`);
      continue;
    }
    if (lineOf(at[0]) !== line) {
      refuse(keyAt, `the value of ${key} is on the line below its key: write it on the key's line`);
      continue;
    }
    if (isMap(value) && !value.flow) {
      refuse(at, `${key} holds a block mapping: write it as a flow mapping on the key's line, such as { a: 1 }`);
      continue;
    }
    if (lineOf(Math.max(at[1] - 1, at[0])) !== line) {
      refuse(at, `the value of ${key} runs on past its key's line: keep it on that one line`);
      continue;
    }
    // Depth first: every later step walks the value, and some of them recursively.
    if (depthOf(value) > MAX_VALUE_DEPTH) {
      refuse(at, `${key} nests more than ${MAX_VALUE_DEPTH} lists and mappings deep`, SHEET_LIMIT);
      continue;
    }
    if (usesAnchorAliasOrTag(value) || isAlias(value)) {
      refuse(at, `${key} uses an anchor, alias or tag, which a sheet does not read`);
      continue;
    }
    read.set(key, { node: value, line, keyAt, at });
  }
  return { read, named };
}
