// The Colang front end: parses Tollgate's small Colang dialect (docs/colang.md) with line numbers and
// lowers it into the canonical rulebook IR. A compiled sheet and a hand-written .co both come through here.
import type { Code } from '../codes/index.ts';
import { normalizeDecimal } from '../conditions/decimal.ts';
// A flow's action is a catalogue tool's exposed name.
import { TOOL_NAME } from '../policy/tool.ts';
import { canonicalRulebook } from '../rulebook/canonical.ts';
import type { ComparisonOp, Expr, Flow, Literal, Rulebook, RulebookSourceMap } from '../rulebook/types.ts';
import { byPosition, type Diagnostic } from '../source/diagnostic.ts';
import type { ColangCode } from './codes.ts';

export const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const ARGUMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const OPS: Record<string, ComparisonOp> = { '>': 'gt', '<': 'lt', '>=': 'gte', '<=': 'lte', '==': 'eq' };
// Compiled once: a compiled sheet sends every one of its lines through these.
const BODY_LINE = /^ {2}\S/;
const LEADING_SPACE = /^\s/;
const CONTEXT_DEF = /^define context (\S+) on (\S+)$/;
const FLOW_DEF = /^define flow (\S+)$/;
const COMPARISON = /^([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|==|>|<)\s*(.+)$/;
const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** A problem past one of the front end's limits (docs/colang.md, "Limits"). */
export const LIMIT_CODE: ColangCode = 'colang_limit';
/**
 * The front end's limits (docs/architecture.md, "Reading hostile input"). A guard nests at most MAX_GUARD_DEPTH
 * `not`s and parentheses, so no later stage that walks an expression (lowering, canonical form,
 * evaluation, equivalence) can exhaust the stack; it names at most MAX_GUARD_TERMS contexts, and a
 * context holds at most MAX_CONTEXT_COMPARISONS comparisons. A compiled sheet stays well inside all
 * three (docs/rule-sheets.md caps its lists at 1000).
 */
export const MAX_GUARD_DEPTH = 64;
export const MAX_GUARD_TERMS = 4096;
export const MAX_CONTEXT_COMPARISONS = 1000;

export type ColangResult = { ok: true; rulebook: Rulebook; sourceMap: RulebookSourceMap } | { ok: false; problems: Diagnostic[] };

interface ContextDef {
  name: string;
  action: string;
  line: number;
  comparisons: Expr[];
}

interface FlowDef {
  action: string;
  line: number;
  body?: { kind: 'refuse' } | { kind: 'allow'; expr: Expr; refs: { name: string; line: number }[] };
}

/**
 * Parses Colang text into the canonical rulebook, or lists every problem with its line.
 *
 * @example
 * parseColang('define flow delete_customer\n  refuse\n')
 * // { ok: true, rulebook: { format: 'tollgate/rulebook@1', flows: [{ action: 'delete_customer', refuse: true }] }, ... }
 */
export function parseColang(text: string, file?: string): ColangResult {
  const problems: Diagnostic[] = [];
  const lines = text.split(/\r?\n/);
  // `at` is the 0-based [start, end) of the problem within its line; by default the line's statement.
  const fail = (line: number, message: string, code: Code = 'colang_syntax', at = statementOf(lines[line - 1] ?? '')) => {
    const problem: Diagnostic = { code, severity: 'error', message, line, column: at[0] + 1, endLine: line, endColumn: at[1] + 1 };
    problems.push(problem);
    return problem;
  };
  // Where a word stands in its line, for a problem about that word (the statement when it is not found).
  const word = (line: number, needle: string): [number, number] => {
    const raw = lines[line - 1] ?? '';
    const i = needle === '' ? -1 : raw.indexOf(needle);
    return i === -1 ? statementOf(raw) : [i, i + needle.length];
  };
  const contexts = new Map<string, ContextDef>();
  const flows = new Map<string, FlowDef>();
  // `skip` swallows the body of a define line that was refused, so one mistake is reported once.
  let open: { kind: 'context'; def: ContextDef } | { kind: 'flow'; def: FlowDef } | { kind: 'skip' } | undefined;
  // The first line ending in a lone \r, kept as found (never looked up by its message's words).
  let loneReturn: Diagnostic | undefined;

  const readLine = (raw: string, line: number) => {
    if (raw.includes('\r')) {
      // Only a lone \r is left here (lines are split at \r?\n): editors end a line at it, this reader does not.
      const cr = raw.indexOf('\r');
      loneReturn ??= fail(line, 'a line ends in a lone carriage return (\\r): end lines with \\n or \\r\\n', 'colang_syntax', [cr, cr + 1]);
      open = { kind: 'skip' };
      return;
    }
    if (raw.includes('\t')) {
      const tab = raw.indexOf('\t');
      fail(line, 'a tab; indent with two spaces', 'colang_syntax', [tab, tab + 1]);
      return;
    }
    const content = stripComment(raw);
    const words = content.trim();
    if (words === '') return;
    const indented = BODY_LINE.test(content);
    if (!indented && LEADING_SPACE.test(content)) {
      fail(line, 'a body line is indented by exactly two spaces');
      return;
    }
    if (!indented) {
      open = { kind: 'skip' };
      const context = CONTEXT_DEF.exec(words);
      const flow = context ? null : FLOW_DEF.exec(words);
      if (context) {
        const [, name = '', action = ''] = context;
        if (!IDENTIFIER.test(name))
          return fail(
            line,
            `"${name}" is not a context name: lowercase letters, digits and _, not starting with a digit`,
            undefined,
            word(line, name),
          );
        if (!TOOL_NAME.test(action)) return fail(line, `"${action}" is not an action name`, undefined, word(line, ` ${action}`));
        if (contexts.has(name))
          return fail(line, `context ${name} is defined already (line ${contexts.get(name)?.line})`, 'colang_duplicate', word(line, name));
        const def = { name, action, line, comparisons: [] };
        contexts.set(name, def);
        open = { kind: 'context', def };
      } else if (flow) {
        const [, action = ''] = flow;
        if (!TOOL_NAME.test(action)) return fail(line, `"${action}" is not an action name`, undefined, word(line, action));
        if (flows.has(action))
          return fail(
            line,
            `${action} has a flow already (line ${flows.get(action)?.line}): one flow per action`,
            'colang_duplicate',
            word(line, action),
          );
        const def: FlowDef = { action, line };
        flows.set(action, def);
        open = { kind: 'flow', def };
      } else fail(line, 'expected "define context NAME on ACTION" or "define flow ACTION"');
      return;
    }
    if (!open) return fail(line, 'an indented line belongs under a define');
    if (open.kind === 'skip') return;
    if (open.kind === 'context') {
      if (open.def.comparisons.length === MAX_CONTEXT_COMPARISONS) {
        open = { kind: 'skip' };
        return fail(line, `a context holds at most ${MAX_CONTEXT_COMPARISONS} comparisons`, LIMIT_CODE);
      }
      const comparison = parseComparison(words);
      if (typeof comparison === 'string') return fail(line, comparison);
      open.def.comparisons.push(comparison);
      return;
    }
    if (open.def.body) return fail(line, `flow ${open.def.action} has its body already: one "refuse" or one "allow when" line`);
    if (words === 'refuse') open.def.body = { kind: 'refuse' };
    else if (words.startsWith('allow when ')) {
      const parsed = parseExpr(words.slice('allow when '.length));
      if ('problem' in parsed) {
        // The body is there but wrong: report that, not also "no body".
        open.def.body = { kind: 'refuse' };
        return fail(line, parsed.problem, parsed.code, word(line, words.slice('allow when '.length)));
      }
      open.def.body = { kind: 'allow', expr: parsed.expr, refs: parsed.refs.map((name) => ({ name, line })) };
    } else {
      open.def.body = { kind: 'refuse' };
      fail(line, 'a flow body is "refuse" or "allow when EXPRESSION"');
    }
  };
  for (const [i, raw] of lines.entries()) readLine(raw, i + 1);
  // A lone \r makes every later line number wrong; the first is reported, at the line it ends.
  if (loneReturn) return { ok: false, problems: [loneReturn] };

  for (const def of contexts.values()) {
    if (def.comparisons.length === 0) fail(def.line, `context ${def.name} has no comparison; add lines such as "amount > 200"`);
  }
  const lowered: Flow[] = [];
  const inlined = new Map<string, Expr>();
  const sourceMap: RulebookSourceMap = { flows: {}, contexts: {} };
  if (file !== undefined) sourceMap.file = file;
  for (const def of flows.values()) {
    sourceMap.flows[def.action] = { line: def.line };
    if (!def.body) {
      fail(def.line, `flow ${def.action} has no body: "refuse" or "allow when EXPRESSION"`);
      continue;
    }
    if (def.body.kind === 'refuse') {
      lowered.push({ action: def.action, refuse: true });
      continue;
    }
    for (const ref of def.body.refs) {
      const context = contexts.get(ref.name);
      if (context && context.action !== def.action) {
        fail(
          ref.line,
          `$${ref.name} is computed from ${context.action}'s arguments, so flow ${def.action} cannot read it`,
          'colang_context_action',
          word(ref.line, `$${ref.name}`),
        );
      }
    }
    lowered.push({ action: def.action, allow_when: inline(def.body.expr, contexts, inlined) });
  }
  for (const def of contexts.values()) sourceMap.contexts[def.name] = { line: def.line };
  if (problems.length > 0) return { ok: false, problems: problems.sort(byPosition) };
  return { ok: true, rulebook: canonicalRulebook(lowered), sourceMap };
}

/** The 0-based [start, end) of a line's statement: its words, without indentation or comment. */
function statementOf(raw: string): [number, number] {
  const content = stripComment(raw).trimEnd();
  const start = content.length - content.trimStart().length;
  return content.length === 0 ? [0, raw.length] : [start, content.length];
}

function stripComment(line: string): string {
  // Most lines have no # at all; those are returned without a scan.
  if (!line.includes('#')) return line;
  // A # outside a string starts a comment.
  let inString = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (inString && c === '\\') i++;
    else if (c === '"') inString = !inString;
    else if (c === '#' && !inString) return line.slice(0, i);
  }
  return line;
}

function parseComparison(words: string): Expr | string {
  const m = COMPARISON.exec(words);
  if (!m) return 'expected a comparison such as "amount > 200" or "country == "DE""';
  const [, arg = '', op = '', raw = ''] = m;
  if (!ARGUMENT.test(arg)) return `"${arg}" is not an argument name`;
  const value = parseLiteral(raw.trim());
  if (typeof value === 'string') return value;
  const operator = OPS[op] as ComparisonOp;
  if (operator !== 'eq' && !('decimal' in value)) return `${op} compares numbers; ${raw.trim()} is not one`;
  return { arg, op: operator, value };
}

function parseLiteral(raw: string): Literal | string {
  if (DECIMAL.test(raw)) {
    const dot = raw.indexOf('.');
    if (dot !== -1 && raw.length - dot - 1 > 18) return `${raw} has more than 18 fraction digits`;
    return { decimal: normalizeDecimal(raw) };
  }
  if (raw === 'true' || raw === 'false') return { boolean: raw === 'true' };
  if (raw.startsWith('"')) {
    try {
      const s: unknown = JSON.parse(raw);
      if (typeof s === 'string') return { string: s };
    } catch {
      // reported below
    }
    return `${raw} is not a well-formed string: write it in double quotes with JSON escapes`;
  }
  return `${raw} is not a literal: a decimal (200, 10.50), a "string", true or false`;
}

type Token = { kind: 'word'; text: string } | { kind: 'var'; name: string } | { kind: 'paren'; text: '(' | ')' };

const TOKEN = /\s*(?:(\()|(\))|\$([A-Za-z0-9_]+)|([A-Za-z]+)|(\S))/y;
const REST_BLANK = /\s*$/y;

function tokenize(text: string): Token[] | string {
  const tokens: Token[] = [];
  // Sticky regexes shared across calls: lastIndex is set before each use, and nothing here re-enters.
  const re = TOKEN;
  re.lastIndex = 0;
  while (re.lastIndex < text.length) {
    const m = re.exec(text);
    if (!m) break;
    if (m[1]) tokens.push({ kind: 'paren', text: '(' });
    else if (m[2]) tokens.push({ kind: 'paren', text: ')' });
    else if (m[3] !== undefined) {
      if (!IDENTIFIER.test(m[3])) return `$${m[3]} is not a context name`;
      tokens.push({ kind: 'var', name: m[3] });
    } else if (m[4]) tokens.push({ kind: 'word', text: m[4] });
    else if (m[5]) return `unexpected "${m[5]}" in the guard`;
    // Only blanks left (tested in place, not on a copy of the rest).
    REST_BLANK.lastIndex = re.lastIndex;
    if (REST_BLANK.test(text)) break;
  }
  return tokens;
}

type Parsed = { expr: Expr; refs: string[] } | { problem: string; code: Code };

/**
 * expr := or ; or := and { "or" and } ; and := unary { "and" unary } ; unary := "not" unary | "(" expr ")" | $name
 * Recursive descent, so nesting is bounded (MAX_GUARD_DEPTH) before it could exhaust the stack.
 */
function parseExpr(text: string): Parsed {
  const tokens = tokenize(text);
  if (typeof tokens === 'string') return { problem: tokens, code: 'colang_syntax' };
  let terms = 0;
  for (const t of tokens) if (t.kind === 'var') terms++;
  if (terms > MAX_GUARD_TERMS) {
    return { problem: `the guard names ${terms} contexts; a guard names at most ${MAX_GUARD_TERMS}`, code: LIMIT_CODE };
  }
  const limit = { passed: false };
  const parsed = parseTokens(tokens, limit);
  return typeof parsed === 'string' ? { problem: parsed, code: limit.passed ? LIMIT_CODE : 'colang_syntax' } : parsed;
}

function parseTokens(tokens: Token[], limit: { passed: boolean }): { expr: Expr; refs: string[] } | string {
  const refs: string[] = [];
  let i = 0;
  // The "not"s and "("s open around the token being read: the recursion's depth, bounded here.
  let depth = 0;
  const tooDeep = () => {
    limit.passed = true;
    return `the guard nests more than ${MAX_GUARD_DEPTH} "not"s and parentheses`;
  };
  const peekWord = (w: string) => {
    const t = tokens[i];
    return t?.kind === 'word' && t.text === w;
  };
  const parseOr = (): Expr | string => {
    const first = parseAnd();
    if (typeof first === 'string') return first;
    const items = [first];
    while (peekWord('or')) {
      i++;
      const next = parseAnd();
      if (typeof next === 'string') return next;
      items.push(next);
    }
    return items.length === 1 ? first : { any: items };
  };
  const parseAnd = (): Expr | string => {
    const first = parseUnary();
    if (typeof first === 'string') return first;
    const items = [first];
    while (peekWord('and')) {
      i++;
      const next = parseUnary();
      if (typeof next === 'string') return next;
      items.push(next);
    }
    return items.length === 1 ? first : { all: items };
  };
  const parseUnary = (): Expr | string => {
    const t = tokens[i];
    if (!t) return 'the guard ends too early: expected $context, "not" or "("';
    if (t.kind === 'word' && t.text === 'not') {
      if (++depth > MAX_GUARD_DEPTH) return tooDeep();
      i++;
      const inner = parseUnary();
      depth--;
      return typeof inner === 'string' ? inner : { not: inner };
    }
    if (t.kind === 'paren' && t.text === '(') {
      if (++depth > MAX_GUARD_DEPTH) return tooDeep();
      i++;
      const inner = parseOr();
      depth--;
      if (typeof inner === 'string') return inner;
      const close = tokens[i];
      if (close?.kind !== 'paren' || close.text !== ')') return 'a "(" is not closed';
      i++;
      return inner;
    }
    if (t.kind === 'var') {
      i++;
      refs.push(t.name);
      return { context: t.name };
    }
    return `expected $context, "not" or "(", got "${describe(t)}"`;
  };
  const expr = parseOr();
  if (typeof expr === 'string') return expr;
  if (i < tokens.length) return `unexpected "${describe(tokens[i] as Token)}" after the guard; join conditions with "and" or "or"`;
  return { expr, refs };
}

function describe(t: Token): string {
  return t.kind === 'var' ? `$${t.name}` : t.text;
}

/**
 * Replaces each computed context by its comparisons (all must hold), so the IR never depends on names.
 * Each context becomes one shared node, so a guard naming a big context many times costs its size once
 * (canonicalExpr normalises a shared node once). Recursion is bounded by MAX_GUARD_DEPTH.
 */
function inline(expr: Expr, contexts: Map<string, ContextDef>, inlined: Map<string, Expr>): Expr {
  if ('context' in expr) {
    const def = contexts.get(expr.context);
    if (!def) return expr;
    let node = inlined.get(def.name);
    if (node === undefined) {
      node = def.comparisons.length === 1 ? (def.comparisons[0] as Expr) : { all: def.comparisons };
      inlined.set(def.name, node);
    }
    return node;
  }
  if ('not' in expr) return { not: inline(expr.not, contexts, inlined) };
  if ('all' in expr) return { all: expr.all.map((e) => inline(e, contexts, inlined)) };
  if ('any' in expr) return { any: expr.any.map((e) => inline(e, contexts, inlined)) };
  return expr;
}
