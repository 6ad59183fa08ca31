// The rule sheet reader: the YAML subset of rule-sheets.txt enforced on the yaml package's syntax tree.
// Every problem is a rule_sheet_unsupported refusal with its line; all of a sheet's problems are listed.
import { isAlias, isMap, isScalar, isSeq, Lexer, LineCounter, type Node, type Pair, parseAllDocuments, type Scalar } from 'yaml';
import { IDENTIFIER } from '../colang/parse.ts';
import { normalizeDecimal } from '../conditions/decimal.ts';
import { TOOL_NAME } from '../policy/tool.ts';
import { MAX_TEXT } from '../rulebook/catalogue.ts';
import { readCheck } from '../rulebook/check.ts';
import type { Check, ComparisonOp, Literal } from '../rulebook/types.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { DecimalNumber } from '../source/yaml-text.ts';
import type { SheetCode } from './codes.ts';

export const SHEET_KEYS = [
  'requires',
  'when',
  'never',
  'requires_confirmation',
  'confirmation',
  'after',
  'not_after',
  'at_most',
  'check',
] as const;
const SHEET_KEY_SET: ReadonlySet<string> = new Set(SHEET_KEYS);
const ARGUMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Longest first, so `x_at_least` is not read as a `_least` of `x_at`. */
const SUFFIXES: [string, ComparisonOp, string][] = [
  ['_at_least', 'gte', 'at least'],
  ['_at_most', 'lte', 'at most'],
  ['_under', 'lt', 'under'],
  ['_over', 'gt', 'over'],
  ['_is', 'eq', 'is'],
];

export interface SheetCondition {
  arg: string;
  op: ComparisonOp;
  value: Literal;
}

export interface SheetRule {
  action: string;
  line: number;
  requires?: string[];
  when?: SheetCondition[];
  never?: true;
  confirmation?: string;
  after?: string[];
  not_after?: string[];
  at_most?: number;
  checks?: Check[];
}

export interface Sheet {
  rules: SheetRule[];
  /** The line of `rules:`, where sheet-wide lints point. */
  line: number;
}

export type SheetReadResult = { ok: true; sheet: Sheet } | { ok: false; problems: Diagnostic[] };

export const UNSUPPORTED: SheetCode = 'rule_sheet_unsupported';
/** A sheet past one of the reader's limits (docs/rule-sheets.md, "Limits"). */
export const SHEET_LIMIT: SheetCode = 'rule_sheet_limit';

/**
 * The reader's limits (docs/architecture.md, "Reading hostile input": every reader has depth, size and count limits
 * that answer a code). A list names at most MAX_LIST_NAMES; confirmation words are capped as the
 * catalogue caps them (MAX_TEXT); a flow value nests at most MAX_VALUE_DEPTH collections.
 */
export const MAX_LIST_NAMES = 1000;
export const MAX_CONFIRMATION = MAX_TEXT;
export const MAX_VALUE_DEPTH = 16;

/**
 * Reads a rule sheet, enforcing its subset of YAML.
 *
 * @example
 * readSheet('rules:\n  - action: delete_customer\n    never: true\n')
 * // { ok: true, sheet: { rules: [{ action: 'delete_customer', line: 2, never: true }], line: 1 } }
 */
export function readSheet(text: string, cache?: SheetCache): SheetReadResult {
  if (cache) {
    const fast = readByRules(text, cache);
    if (fast) return fast;
  }
  return readWhole(text);
}

/**
 * Rules already read, by their text: the console compiles on every keystroke, and a keystroke changes
 * one rule, so only that rule goes through the YAML parser again.
 */
export interface SheetCache {
  rules: Map<string, SheetRule | null>;
}

const MAX_CACHED_RULES = 4096;

export function createSheetCache(): SheetCache {
  return { rules: new Map() };
}

const BLANK_OR_COMMENT = /^\s*(?:#.*)?$/;
const RULES_LINE = /^rules:(?:\s+#.*|\s*)$/;
const FIRST_ITEM = /^( *)- /;
const DOCUMENT_MARKER = /^\s*(?:---|\.\.\.)/;

/**
 * The fast path: splits a sheet of the plain shape (comments, `rules:`, then `- action:` items at one
 * indentation) into its rules and reads each on its own, from the cache when its text is unchanged.
 * Returns undefined, and the whole text is read instead, for any other shape or any problem: refusals
 * always come from reading the whole sheet, so they are the same with or without a cache.
 */
function readByRules(text: string, cache: SheetCache): SheetReadResult | undefined {
  if (text.includes('\t') || text.includes('\r')) return undefined;
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && BLANK_OR_COMMENT.test(lines[i] as string)) i++;
  // A # starts a comment only after a space: `rules:#` is not `rules:`.
  if (!RULES_LINE.test(lines[i] ?? '')) return undefined;
  const rulesLine = i + 1;
  i++;
  while (i < lines.length && BLANK_OR_COMMENT.test(lines[i] as string)) i++;
  const first = FIRST_ITEM.exec(lines[i] ?? '');
  if (!first) return undefined;
  const indent = (first[1] as string).length;
  const item = `${' '.repeat(indent)}- `;
  const deeper = ' '.repeat(indent + 1);
  // offsets[k] is where line k starts in the text, so a rule's text is one slice of it.
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  const starts: number[] = [];
  for (let k = i; k < lines.length; k++) {
    const line = lines[k] as string;
    if (line.startsWith(item)) starts.push(k);
    // Anything else sits deeper than the items or is blank or a comment, or the shape is not the plain
    // one. (Deeper lines, the most common, are tested first; no blank or comment line is a marker.)
    else if (line.startsWith(deeper)) {
      if (DOCUMENT_MARKER.test(line)) return undefined;
    } else if (!BLANK_OR_COMMENT.test(line)) return undefined;
  }
  const rules: SheetRule[] = [];
  const seen = new Set<string>();
  for (let n = 0; n < starts.length; n++) {
    const from = starts[n] as number;
    const to = starts[n + 1] ?? lines.length;
    // The lines from..to-1 joined by \n (the text holds no \r here).
    const chunk = text.slice(offsets[from], (offsets[to] ?? text.length + 1) - 1);
    let rule = cache.rules.get(chunk);
    if (rule === undefined) {
      rule = readOneRule(chunk);
      if (cache.rules.size >= MAX_CACHED_RULES) cache.rules.clear();
      cache.rules.set(chunk, rule);
    }
    if (rule === null || seen.has(rule.action)) return undefined;
    seen.add(rule.action);
    rules.push({ ...rule, line: rule.line + from });
  }
  return { ok: true, sheet: { rules, line: rulesLine } };
}

/** Reads one rule's text (lines counted from 1 at its start); null when it has any problem. */
function readOneRule(chunk: string): SheetRule | null {
  const lines = new LineCounter();
  const docs = parseAllDocuments(chunk, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const doc = Array.isArray(docs) && docs.length === 1 ? docs[0] : undefined;
  if (!doc || doc.errors.length > 0 || !isSeq(doc.contents) || doc.contents.flow || doc.contents.items.length !== 1) return null;
  let problems = 0;
  const rule = readRule(
    doc.contents.items[0] as Node | null,
    (offset) => lines.linePos(offset ?? 0).line,
    () => {
      problems++;
    },
  );
  return rule && problems === 0 ? rule : null;
}

function readWhole(text: string): SheetReadResult {
  const problems: Diagnostic[] = [];
  const lines = new LineCounter();
  const lineOf = (offset: number | undefined) => lines.linePos(offset ?? 0).line;
  const refuse: Refuse = (line, reason, code = UNSUPPORTED) => {
    problems.push({
      code,
      severity: 'error',
      message: reason,
      range: { start: { line, column: 1 }, end: { line, column: 1 } },
    });
  };

  // The yaml package ends lines only at \n (and \r\n); a lone \r would leave the whole sheet on line 1,
  // its every problem there. Editors end a line at it, so the one mistake is named at their line.
  const loneCr = /\r(?!\n)/.exec(text);
  if (loneCr) {
    const line = (text.slice(0, loneCr.index).match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
    refuse(line, 'a line ends in a lone carriage return (\\r): end lines with \\n or \\r\\n');
    return finish(problems, { rules: [], line: 1 });
  }
  if (text.includes('\t')) {
    text.split(/\r?\n/).forEach((l, i) => {
      if (l.includes('\t')) refuse(i + 1, 'a tab: a sheet is indented with spaces only');
    });
  }
  const deepAt = tooDeepAt(text);
  if (deepAt !== undefined) {
    refuse(deepAt, `a value nests more than ${MAX_VALUE_DEPTH} lists and mappings deep`, SHEET_LIMIT);
    return finish(problems, { rules: [], line: 1 });
  }
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  if (list.length > 1) refuse(lineOf(list[1]?.range[0]), 'a second YAML document: a sheet is one document');
  const doc = list[0];
  const tabbed = new Set(problems.map((p) => p.range?.start.line));
  // A directive changes how the rest is read (%YAML 1.1 makes `never: yes` a boolean, %TAG renames
  // tags): a sheet is read one way only, so none is accepted. At column 1 a % can only begin one. Lines
  // break where YAML breaks them, at \n and \r only: the regex's own ^ would start one after U+2028 too.
  const directives = [...text.matchAll(/(?<![^\r\n])%[^\r\n]*/g)].map((m) => ({ line: lineOf(m.index), text: m[0] }));
  const directed = new Set(directives.map((d) => d.line));
  let unreadable = problems.length > 0;
  for (const e of doc?.errors ?? []) {
    const line = lineOf(e.pos[0]);
    // A tab or a directive makes YAML errors of its own; it is the one mistake to report on its line.
    if (tabbed.has(line) || directed.has(line)) continue;
    unreadable = true;
    // The yaml package turns its own stack overflow into this error: a value nested past any limit.
    if (e.code === 'RESOURCE_EXHAUSTION') refuse(line, `a value nests more than ${MAX_VALUE_DEPTH} lists and mappings deep`, SHEET_LIMIT);
    else refuse(line, `YAML the sheet cannot read: ${e.message.split('\n')[0]}`);
  }
  for (const d of directives) {
    refuse(d.line, `a YAML directive (${d.text.slice(0, 40).trim()}): a sheet is plain YAML 1.2, read one way, with no directives`);
  }
  // A directive's own error can leave the document unread: then the directive is the one problem.
  if (!doc && directives.length > 0) unreadable = true;
  if (unreadable) return finish(problems, { rules: [], line: 1 });

  const top = doc?.contents ?? null;
  if (!isMap(top) || top.flow) {
    // Nothing at all (no text, blanks, comments, a bare ---) is no sheet either: a sheet says which
    // rules it has, if only `rules: []`, so an empty file never passes for one that governs nothing.
    const empty = top === null || (isScalar(top) && top.value === null && top.source === '' && !hasProperties(top));
    const what = empty ? 'the sheet is empty: ' : '';
    refuse(empty ? 1 : lineOf(top?.range?.[0]), `${what}a sheet is one mapping with the key rules: holding a block list of rules`);
    return finish(problems, { rules: [], line: 1 });
  }
  if (hasProperties(top)) refuse(lineOf(top.range?.[0]), 'the sheet carries an anchor or tag, which a sheet does not read');
  let rulesLine = 1;
  let rulesNode: Node | null = null;
  for (const pair of top.items) {
    const key = keyName(pair);
    const keyNode = pair.key as Node | null;
    const line = lineOf(keyNode?.range?.[0]);
    if (hasProperties(keyNode) || isAlias(keyNode)) {
      refuse(line, 'a key carries an anchor, alias or tag, which a sheet does not read');
      return finish(problems, { rules: [], line });
    }
    if (key !== 'rules') refuse(line, `the key "${key}" is not part of a sheet: a sheet has only rules:`);
    else if (rulesNode !== null) refuse(line, 'rules: is given twice: a sheet has one list of rules');
    else {
      rulesLine = line;
      rulesNode = pair.value as Node | null;
      if (hasProperties(rulesNode) || isAlias(rulesNode)) {
        refuse(line, 'rules: carries an anchor, alias or tag, which a sheet does not read');
        return finish(problems, { rules: [], line });
      }
    }
  }
  const rules: SheetRule[] = [];
  const seen = new Map<string, number>();
  if (isSeq(rulesNode) && !rulesNode.flow) {
    for (const item of rulesNode.items) {
      const rule = readRule(item as Node | null, lineOf, refuse);
      if (!rule) continue;
      const first = seen.get(rule.action);
      if (first !== undefined) {
        refuse(rule.line, `\`${rule.action}\` has a rule already: one rule per action, so how two would combine is never guessed`);
        continue;
      }
      seen.set(rule.action, rule.line);
      rules.push(rule);
    }
  } else if (!(isSeq(rulesNode) && rulesNode.items.length === 0)) {
    refuse(rulesLine, 'rules: holds a block list of rules, one "- action: ..." each');
  }
  return finish(problems, { rules, line: rulesLine });
}

/**
 * The line where flow lists and mappings first nest past MAX_VALUE_DEPTH, if they do. The yaml package
 * composes them recursively and turns its own stack overflow into an error, which depends on how deep
 * the caller's stack already is: so depth is measured first, on its lexer's tokens (a loop, and a bracket
 * inside a quoted string is part of a string token). Only a text with that many brackets is lexed.
 */
function tooDeepAt(text: string): number | undefined {
  let brackets = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) brackets++;
  }
  if (brackets <= MAX_VALUE_DEPTH) return undefined;
  let depth = 0;
  let line = 1;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      if (++depth > MAX_VALUE_DEPTH) return line;
    } else if (token === ']' || token === '}') depth = Math.max(0, depth - 1);
    else if (token.includes('\n')) line += token.split('\n').length - 1;
  }
  return undefined;
}

/** An anchor or a tag on a node: outside the subset, a sheet says each thing once, in plain words. */
function hasProperties(node: Node | null | undefined): boolean {
  return node !== null && node !== undefined && (node.anchor !== undefined || node.tag !== undefined);
}

function finish(problems: Diagnostic[], sheet: Sheet): SheetReadResult {
  if (problems.length === 0) return { ok: true, sheet };
  return { ok: false, problems: problems.sort((a, b) => (a.range?.start.line ?? 0) - (b.range?.start.line ?? 0)) };
}

function keyName(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

type Refuse = (line: number, reason: string, code?: string) => void;

function readRule(node: Node | null, lineOf: (o: number | undefined) => number, refuse: Refuse): SheetRule | undefined {
  const ruleLine = lineOf(node?.range?.[0]);
  if (!isMap(node) || node.flow) {
    refuse(ruleLine, 'a rule is a block mapping: "- action: NAME" then its keys, one per line');
    return undefined;
  }
  if (node.anchor !== undefined || node.tag !== undefined) {
    refuse(ruleLine, 'the rule uses an anchor or tag, which a sheet does not read');
    return undefined;
  }
  const before = { count: 0 };
  const counted: Refuse = (line, reason, code) => {
    before.count++;
    refuse(line, reason, code);
  };
  const values = new Map<string, { node: Node; line: number }>();
  // Every key the rule gives, its value read or refused: a refused value still says the key is there.
  const named = new Set<string>();
  for (const pair of node.items) {
    const key = keyName(pair);
    const keyNode = pair.key as Node | null;
    const line = lineOf(keyNode?.range?.[0]);
    if (!isScalar(keyNode) || keyNode.type !== 'PLAIN' || hasProperties(keyNode)) {
      counted(line, 'a key is a plain word, with no anchor or tag');
      continue;
    }
    if (key !== 'action' && !SHEET_KEY_SET.has(key)) {
      counted(line, `"${key}" is not a key of a rule: use action, ${SHEET_KEYS.join(', ')}`);
      continue;
    }
    if (named.has(key)) {
      counted(line, `${key} is given twice in one rule`);
      continue;
    }
    named.add(key);
    const value = pair.value as Node | null;
    if (value === null || (isScalar(value) && value.value === null && value.source === '')) {
      counted(line, `${key} has no value: write it on the key's line`);
      continue;
    }
    if (isSeq(value) && !value.flow) {
      counted(line, `${key} holds a block list: write it as a flow list on the key's line, such as [a, b]`);
      continue;
    }
    if (lineOf(value.range?.[0]) !== line) {
      counted(line, `the value of ${key} is on the line below its key: write it on the key's line`);
      continue;
    }
    if (isMap(value) && !value.flow) {
      counted(line, `${key} holds a block mapping: write it as a flow mapping on the key's line, such as { a: 1 }`);
      continue;
    }
    if (lineOf(Math.max((value.range?.[1] ?? 1) - 1, value.range?.[0] ?? 0)) !== line) {
      counted(line, `the value of ${key} runs on past its key's line: keep it on that one line`);
      continue;
    }
    // Depth first: every later step walks the value, and some of them recursively.
    if (depthOf(value) > MAX_VALUE_DEPTH) {
      counted(line, `${key} nests more than ${MAX_VALUE_DEPTH} lists and mappings deep`, SHEET_LIMIT);
      continue;
    }
    if (usesAnchorAliasOrTag(value)) {
      counted(line, `${key} uses an anchor, alias or tag, which a sheet does not read`);
      continue;
    }
    values.set(key, { node: value, line });
  }

  const action = values.get('action');
  if (!action) {
    if (before.count === 0) refuse(ruleLine, 'a rule names its action: "- action: NAME", a tool of your catalogue');
    return undefined;
  }
  const name = plainString(action.node);
  if (name === undefined || !TOOL_NAME.test(name)) {
    refuse(action.line, 'action names a tool of the catalogue: letters, digits, _, . and -');
    return undefined;
  }
  const rule: SheetRule = { action: name, line: action.line };
  const keys = [...values.keys()].filter((k) => k !== 'action');
  const saysNothing = `the rule for \`${name}\` says nothing: add one or more of ${SHEET_KEYS.join(', ')}`;
  if (keys.length === 0 && before.count === 0) refuse(action.line, saysNothing);

  for (const key of keys) {
    const { node: value, line } = values.get(key) as { node: Node; line: number };
    switch (key) {
      case 'never':
        if (!isTrue(value)) counted(line, 'never: true is the only form; to let the action run, remove the key');
        else if (keys.length > 1)
          counted(
            line,
            `never with ${keys.filter((k) => k !== 'never').join(', ')} beside it: an action that never runs has no other condition`,
          );
        else rule.never = true;
        break;
      case 'requires': {
        const names = nameList(value, line, counted, 'requires', IDENTIFIER, 'a context name: lowercase letters, digits and _');
        if (names) rule.requires = names;
        break;
      }
      case 'after':
      case 'not_after': {
        const names = nameList(value, line, counted, key, TOOL_NAME, 'a tool name');
        const other = key === 'after' ? 'not_after' : 'after';
        // One set of the other list's names, so the cross-check is linear in both lists.
        const others = new Set(otherNames(values.get(other)?.node));
        const both = names?.find((n) => others.has(n));
        if (key === 'after' && names?.includes(name)) counted(line, `after names \`${name}\` itself: its first call could never run`);
        else if (both && key === 'not_after') counted(line, `\`${both}\` is in both after and not_after: the action could never run`);
        else if (names) rule[key] = names;
        break;
      }
      case 'when': {
        const conditions = readWhen(value, line, counted);
        if (!named.has('requires')) counted(line, 'when on a rule that requires nothing: the conditions say when the requirements apply');
        else if (conditions) rule.when = conditions;
        break;
      }
      case 'requires_confirmation':
        if (!isScalar(value) || typeof value.value !== 'boolean') counted(line, 'requires_confirmation is true or false');
        else if (!value.value && values.has('confirmation')) {
          counted(line, 'requires_confirmation: false beside confirmation words: say one thing; remove one of the two');
        } else if (value.value && rule.confirmation === undefined) rule.confirmation = `Confirm the call to ${name}?`;
        break;
      case 'confirmation': {
        const words = isScalar(value) && typeof value.value === 'string' ? value.value.trim() : undefined;
        if (!words) counted(line, 'confirmation is the words the person is asked, such as "Close this account?"');
        else if (words.length > MAX_CONFIRMATION)
          counted(
            line,
            `confirmation is ${words.length} characters; the words a person is asked are at most ${MAX_CONFIRMATION}`,
            SHEET_LIMIT,
          );
        else rule.confirmation = words;
        break;
      }
      case 'at_most': {
        const n = isScalar(value) && typeof value.value === 'number' && /^[1-9][0-9]*$/.test(value.source ?? '') ? value.value : undefined;
        if (n === undefined || !Number.isSafeInteger(n)) counted(line, 'at_most is a positive whole number of calls per session');
        else rule.at_most = n;
        break;
      }
      case 'check': {
        const checks = readChecks(value, line, counted);
        if (checks) rule.checks = checks;
        break;
      }
    }
  }
  // `requires_confirmation: false` and nothing else compiles to nothing, yet names the action, which
  // would silence write_ungoverned for it: a rule that says nothing is refused, whatever its keys.
  if (before.count === 0 && keys.length > 0 && Object.keys(rule).every((k) => k === 'action' || k === 'line'))
    refuse(action.line, saysNothing);
  return rule;
}

/**
 * Anchors, aliases and tags, on keys and values at any depth, are outside the subset: a sheet says each
 * thing once, in plain words. Walked with a stack, so no value's depth can exhaust the call stack.
 */
function usesAnchorAliasOrTag(root: Node | null): boolean {
  const stack: (Node | null)[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node | null;
    if (node === null) continue;
    if (isAlias(node) || hasProperties(node)) return true;
    if (isSeq(node)) for (const item of node.items) stack.push(item as Node | null);
    if (isMap(node)) for (const pair of node.items) stack.push(pair.key as Node | null, pair.value as Node | null);
  }
  return false;
}

/** How many lists and mappings deep a value nests (a scalar is 0), walked with a stack. */
function depthOf(root: Node | null): number {
  let deepest = 0;
  const stack: [Node | null, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [Node | null, number];
    if (isSeq(node) || isMap(node)) {
      deepest = Math.max(deepest, depth + 1);
      if (isSeq(node)) for (const item of node.items) stack.push([item as Node | null, depth + 1]);
      else for (const pair of node.items) stack.push([pair.key as Node | null, depth + 1], [pair.value as Node | null, depth + 1]);
    }
  }
  return deepest;
}

function isTrue(node: Node): boolean {
  return isScalar(node) && node.value === true;
}

function plainString(node: Node): string | undefined {
  return isScalar(node) && typeof node.value === 'string' ? node.value : undefined;
}

function nameList(node: Node, line: number, refuse: Refuse, key: string, pattern: RegExp, what: string): string[] | undefined {
  if (!isSeq(node) || node.items.length === 0) {
    refuse(line, `${key} is a list on its line, such as [a, b]`);
    return undefined;
  }
  if (node.items.length > MAX_LIST_NAMES) {
    refuse(line, `${key} lists ${node.items.length} names; a list names at most ${MAX_LIST_NAMES}`, SHEET_LIMIT);
    return undefined;
  }
  // A set beside the list, so finding a name twice stays linear in the list's length.
  const names = new Set<string>();
  for (const item of node.items) {
    const name = isScalar(item) && typeof item.value === 'string' ? item.value : undefined;
    if (name === undefined || !pattern.test(name)) {
      refuse(line, `${key} lists ${JSON.stringify(isScalar(item) ? item.value : String(item))}, which is not ${what}`);
      return undefined;
    }
    if (names.has(name)) {
      refuse(line, `${key} lists ${name} twice`);
      return undefined;
    }
    names.add(name);
  }
  return [...names];
}

function readWhen(node: Node, line: number, refuse: Refuse): SheetCondition[] | undefined {
  if (!isMap(node) || node.items.length === 0) {
    refuse(line, 'when is a mapping on its line of conditions, such as { amount_over: 200 }');
    return undefined;
  }
  if (node.items.length > MAX_LIST_NAMES) {
    refuse(line, `when holds ${node.items.length} conditions; it holds at most ${MAX_LIST_NAMES}`, SHEET_LIMIT);
    return undefined;
  }
  const conditions: SheetCondition[] = [];
  const seen = new Set<string>();
  let ok = true;
  for (const pair of node.items) {
    const key = keyName(pair);
    // Two values for one condition (`{region_is: EU, region_is: US}`): which one counts would be a guess,
    // and keeping both states a condition that never holds, so the requirement would never apply.
    if (seen.has(key)) {
      refuse(line, `when names ${key} twice: which one counts would be a guess`);
      ok = false;
      continue;
    }
    seen.add(key);
    const suffix = SUFFIXES.find(([s]) => key.endsWith(s) && key.length > s.length);
    const arg = suffix ? key.slice(0, -suffix[0].length) : '';
    if (!suffix || !ARGUMENT.test(arg)) {
      refuse(line, `${key} states no comparison the compiler can state: write <argument>_over, _under, _at_least, _at_most or _is`);
      ok = false;
      continue;
    }
    const [, op, words] = suffix;
    const valueNode = pair.value as Node | null;
    const value = literalOf(valueNode);
    if (value === undefined && isScalar(valueNode) && typeof valueNode.value === 'number') {
      refuse(line, `${key}: ${valueNode.source} is not a number the compiler can state exactly; write plain digits such as 200 or 99.50`);
      ok = false;
    } else if (value === undefined) {
      refuse(line, `${key} compares with something that is not a number, a string or true/false`);
      ok = false;
    } else if (op !== 'eq' && !('decimal' in value)) {
      refuse(line, `${key} compares a number with ${describeLiteral(value)}, which is not one: "${words}" needs a number such as 200`);
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

function readChecks(node: Node, line: number, refuse: Refuse): Check[] | undefined {
  if (!isSeq(node) || node.items.length === 0) {
    refuse(line, 'check is a list on its line of conditions, such as [{field: quantity, at_most: 10}]');
    return undefined;
  }
  if (node.items.length > MAX_LIST_NAMES) {
    refuse(line, `check lists ${node.items.length} conditions; it lists at most ${MAX_LIST_NAMES}`, SHEET_LIMIT);
    return undefined;
  }
  const checks: Check[] = [];
  let ok = true;
  node.items.forEach((item, i) => {
    const problems: Diagnostic[] = [];
    const twice = repeatedKey(item as Node | null);
    if (twice !== undefined) {
      refuse(line, `check ${i + 1} names ${twice} twice: which one counts would be a guess`);
      ok = false;
      return;
    }
    const check = readCheck(plainValue(item as Node | null), `/check/${i}`, problems);
    for (const p of problems) refuse(line, `check ${i + 1}: ${p.message}`);
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
function otherNames(node: Node | undefined): string[] {
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
