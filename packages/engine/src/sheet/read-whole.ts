// Reading a whole sheet: the YAML subset of docs/rule-sheets.md enforced on the yaml package's syntax
// tree. Every problem is a refusal at its place in the text (line, column and end, on one line); all of a
// sheet's problems are listed, in the order of the text.
import { isAlias, isMap, isScalar, isSeq, Lexer, LineCounter, type Node, parseAllDocuments } from 'yaml';
import { byPosition, type Diagnostic } from '../source/diagnostic.ts';
import { readRule } from './read-rule.ts';
import { MAX_VALUE_DEPTH, SHEET_LIMIT, type Sheet, type SheetReadResult, type SheetRule, UNSUPPORTED } from './sheet-model.ts';
import { hasProperties, keyName, type Refuse, type Span, spanOf } from './sheet-nodes.ts';

export function readWhole(text: string): SheetReadResult {
  const problems: Diagnostic[] = [];
  const lines = new LineCounter();
  const lineOf = (offset: number | undefined) => lines.linePos(offset ?? 0).line;
  const place = placer(text);
  const refuse: Refuse = (at, reason, code = UNSUPPORTED) => {
    problems.push({ code, severity: 'error', message: reason, ...place(at) });
  };

  // The yaml package ends lines only at \n (and \r\n); a lone \r would leave the whole sheet on line 1,
  // its every problem there. Editors end a line at it, so the one mistake is named at their line.
  const loneCr = /\r(?!\n)/.exec(text);
  if (loneCr) {
    const before = text.slice(0, loneCr.index);
    const line = (before.match(/\r\n|\r|\n/g)?.length ?? 0) + 1;
    const column = loneCr.index - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
    const message = 'a line ends in a lone carriage return (\\r): end lines with \\n or \\r\\n';
    problems.push({ code: UNSUPPORTED, severity: 'error', message, line, column, endLine: line, endColumn: column + 1 });
    return finish(problems, { rules: [], line: 1 });
  }
  const tabbed = new Set<number>();
  for (const tab of text.matchAll(/\t/g)) {
    const line = place([tab.index, tab.index]).line;
    if (tabbed.has(line)) continue;
    tabbed.add(line);
    refuse([tab.index, tab.index + 1], 'a tab: a sheet is indented with spaces only');
  }
  const deepAt = tooDeepAt(text);
  if (deepAt !== undefined) {
    refuse([deepAt, deepAt + 1], `a value nests more than ${MAX_VALUE_DEPTH} lists and mappings deep`, SHEET_LIMIT);
    return finish(problems, { rules: [], line: 1 });
  }
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [];
  if (list.length > 1) {
    const second = list[1]?.range[0] ?? 0;
    refuse([second, second + 3], 'a second YAML document: a sheet is one document');
  }
  const doc = list[0];
  // A directive changes how the rest is read (%YAML 1.1 makes `never: yes` a boolean, %TAG renames
  // tags): a sheet is read one way only, so none is accepted. At column 1 a % can only begin one. Lines
  // break where YAML breaks them, at \n and \r only: the regex's own ^ would start one after U+2028 too.
  const directives = [...text.matchAll(/(?<![^\r\n])%[^\r\n]*/g)].map((m) => ({
    at: [m.index, m.index + m[0].length] as Span,
    text: m[0],
  }));
  const directed = new Set(directives.map((d) => lineOf(d.at[0])));
  let unreadable = problems.length > 0;
  for (const e of doc?.errors ?? []) {
    const line = lineOf(e.pos[0]);
    // A tab or a directive makes YAML errors of its own; it is the one mistake to report on its line.
    if (tabbed.has(line) || directed.has(line)) continue;
    unreadable = true;
    // The yaml package turns its own stack overflow into this error: a value nested past any limit.
    if (e.code === 'RESOURCE_EXHAUSTION') refuse(e.pos, `a value nests more than ${MAX_VALUE_DEPTH} lists and mappings deep`, SHEET_LIMIT);
    else refuse(e.pos, `YAML the sheet cannot read: ${e.message.split('\n')[0]}`);
  }
  for (const d of directives) {
    refuse(d.at, `a YAML directive (${d.text.slice(0, 40).trim()}): a sheet is plain YAML 1.2, read one way, with no directives`);
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
    refuse(empty ? [0, 0] : spanOf(top), `${what}a sheet is one mapping with the key rules: holding a block list of rules`);
    return finish(problems, { rules: [], line: 1 });
  }
  if (hasProperties(top)) refuse(spanOf(top), 'the sheet carries an anchor or tag, which a sheet does not read');
  let rulesLine = 1;
  let rulesAt: Span = [0, 0];
  let rulesNode: Node | null = null;
  for (const pair of top.items) {
    const key = keyName(pair);
    const keyNode = pair.key as Node | null;
    const keyAt = spanOf(keyNode);
    const line = lineOf(keyAt[0]);
    if (hasProperties(keyNode) || isAlias(keyNode)) {
      refuse(keyAt, 'a key carries an anchor, alias or tag, which a sheet does not read');
      return finish(problems, { rules: [], line });
    }
    if (key !== 'rules') refuse(keyAt, `the key "${key}" is not part of a sheet: a sheet has only rules:`);
    else if (rulesNode !== null) refuse(keyAt, 'rules: is given twice: a sheet has one list of rules');
    else {
      rulesLine = line;
      rulesAt = keyAt;
      rulesNode = pair.value as Node | null;
      if (hasProperties(rulesNode) || isAlias(rulesNode)) {
        refuse(keyAt, 'rules: carries an anchor, alias or tag, which a sheet does not read');
        return finish(problems, { rules: [], line });
      }
    }
  }
  const rules: SheetRule[] = [];
  const seen = new Set<string>();
  if (isSeq(rulesNode) && !rulesNode.flow) {
    for (const item of rulesNode.items) {
      const read = readRule(item as Node | null, lineOf, refuse);
      if (!read) continue;
      if (seen.has(read.rule.action)) {
        refuse(read.actionAt, `\`${read.rule.action}\` has a rule already: one rule per action, so how two would combine is never guessed`);
        continue;
      }
      seen.add(read.rule.action);
      rules.push(read.rule);
    }
  } else if (!(isSeq(rulesNode) && rulesNode.items.length === 0)) {
    refuse(rulesAt, 'rules: holds a block list of rules, one "- action: ..." each');
  }
  return finish(problems, { rules, line: rulesLine });
}

/**
 * Places a span of the text as a diagnostic's line, column and end. Lines end at \n (as the yaml
 * package ends them); a span running past its first line is cut at that line's end, so a marker names
 * where the problem starts, not a whole block.
 */
function placer(text: string): (at: Span) => { line: number; column: number; endLine: number; endColumn: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const lineIndex = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return ([from, to]) => {
    const start = Math.min(Math.max(0, from), text.length);
    const index = lineIndex(start);
    const lineStart = starts[index] as number;
    const next = starts[index + 1];
    // The line's own end: before its \n, and before a \r that ends it.
    let lineEnd = next === undefined ? text.length : next - 1;
    if (lineEnd > lineStart && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    const end = Math.max(start, Math.min(to, lineEnd));
    return { line: index + 1, column: start - lineStart + 1, endLine: index + 1, endColumn: end - lineStart + 1 };
  };
}

/**
 * The offset where flow lists and mappings first nest past MAX_VALUE_DEPTH, if they do. The yaml package
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
  let offset = 0;
  for (const token of new Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      if (++depth > MAX_VALUE_DEPTH) return offset;
    } else if (token === ']' || token === '}') depth = Math.max(0, depth - 1);
    // The lexer's control tokens (document start, scalar, flow error end) are not text of the source.
    if (!LEXER_CONTROL.has(token)) offset += token.length;
  }
  return undefined;
}

const LEXER_CONTROL: ReadonlySet<string> = new Set(['\x02', '\x1f', '\x18']);

function finish(problems: Diagnostic[], sheet: Sheet): SheetReadResult {
  if (problems.length === 0) return { ok: true, sheet };
  return { ok: false, problems: problems.sort(byPosition) };
}
