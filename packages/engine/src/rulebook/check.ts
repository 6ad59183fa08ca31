// Checks: conditions on a call (catalogue `checks`, sheet `check`), read from plain values and decided
// in three-valued logic against the call's arguments and the session's earlier results.
import { codeView } from '../codes/index.ts';
import { compareNumeric, type NumericOp } from '../conditions/bounds.ts';
import { compareDecimal, isDecimalValue, keptNumberReadings, readNumeric } from '../conditions/decimal.ts';
import { FALSE, TRUE, type Tri, UNKNOWN } from '../conditions/tri.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { JsonNumber } from '../source/json-number.ts';
import { childPointer, MISSING, step } from '../source/json-pointer.ts';
import { DecimalNumber } from '../source/yaml-text.ts';
import type { Check, CheckOp, Literal } from './types.ts';

/** The codes a check's problems carry; users script against them, so none is ever renamed or reused. */
export const CHECK_CODES = codeView('check');

export type CheckCode = keyof typeof CHECK_CODES;

export const CHECK_OPS: readonly CheckOp[] = ['is', 'is_not', 'in', 'not_in', 'over', 'under', 'at_least', 'at_most'];
const NUMERIC_OPS: ReadonlySet<string> = new Set(['over', 'under', 'at_least', 'at_most']);
const LIST_OPS: ReadonlySet<string> = new Set(['in', 'not_in']);
export const MAX_FIELD_LENGTH = 256;
export const MAX_CHECK_LIST = 256;
const FIELD = /^[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;
// A tool name here has no dot: the first dot ends it (docs/catalogue.md, "Checks").
const FROM = /^([A-Za-z0-9_-]{1,128})\.([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)$/;

/** One call made earlier in the session, oldest first in a history. */
export interface SessionCall {
  tool: string;
  arguments?: unknown;
  result?: unknown;
}

function fail(problems: Diagnostic[], code: CheckCode, path: string, message: string): void {
  problems.push({ code, severity: 'error', path, message });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof DecimalNumber);
}

/**
 * Reads one check from a plain value (YAML or JSON), pushing every problem with its path.
 *
 * @example
 * readCheck({ field: 'quantity', at_most: { from: 'check_stock.in_stock' } }, '/checks/0', problems)
 * // { field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'in_stock' } }
 */
export function readCheck(value: unknown, path: string, problems: Diagnostic[]): Check | undefined {
  if (!isRecord(value)) {
    fail(problems, 'CHECK_INVALID', path, 'a check is a mapping such as {field: country, in: [DE, FR]}');
    return undefined;
  }
  const before = problems.length;
  const ops: CheckOp[] = [];
  for (const key of Object.keys(value)) {
    if (key === 'field') continue;
    if ((CHECK_OPS as readonly string[]).includes(key)) ops.push(key as CheckOp);
    else
      fail(
        problems,
        'CHECK_INVALID',
        childPointer(path, key),
        `unknown member "${key}"; a check has field and one of ${CHECK_OPS.join(', ')}`,
      );
  }
  const field = value.field;
  if (field === undefined) {
    fail(problems, 'CHECK_INVALID', path, 'a check needs `field`, the argument it reads, such as field: quantity');
  } else if (typeof field !== 'string' || field.length > MAX_FIELD_LENGTH || !FIELD.test(field)) {
    fail(
      problems,
      'CHECK_INVALID',
      `${path}/field`,
      'a field is an argument name (letters, digits, _ and -), with dots for nested members, such as shipping.country',
    );
  }
  if (ops.length !== 1) {
    fail(
      problems,
      'CHECK_COMPARISON',
      path,
      ops.length === 0
        ? `a check compares its field: add one of ${CHECK_OPS.join(', ')}`
        : `a check makes one comparison; this one has ${ops.join(' and ')}: split it into ${ops.length} checks`,
    );
    return undefined;
  }
  const op = ops[0] as CheckOp;
  const operand = readOperand(op, value[op], childPointer(path, op), problems);
  if (problems.length !== before || operand === undefined) return undefined;
  return { field: field as string, op, ...operand };
}

type Operand = { value: Literal | Literal[] } | { from: { tool: string; field: string } };

function readOperand(op: CheckOp, raw: unknown, path: string, problems: Diagnostic[]): Operand | undefined {
  if (isRecord(raw)) return readFrom(raw, path, problems);
  if (Array.isArray(raw)) {
    if (!LIST_OPS.has(op)) {
      fail(problems, 'CHECK_OPERAND', path, `a list is for in and not_in; ${op} compares with one value`);
      return undefined;
    }
    return readList(raw, path, problems);
  }
  if (LIST_OPS.has(op)) {
    fail(problems, 'CHECK_OPERAND', path, `${op} takes a list, such as ${op}: [DE, FR], or {from: tool.field}`);
    return undefined;
  }
  const literal = readLiteral(raw, path, problems);
  if (literal === undefined) return undefined;
  if (NUMERIC_OPS.has(op) && !('decimal' in literal)) {
    fail(problems, 'CHECK_OPERAND', path, `${op} compares numbers: write a number such as 10 or 10.50, or {from: tool.field}`);
    return undefined;
  }
  return { value: literal };
}

function readFrom(raw: Record<string, unknown>, path: string, problems: Diagnostic[]): Operand | undefined {
  const keys = Object.keys(raw);
  const source = raw.from;
  if (keys.length !== 1 || typeof source !== 'string') {
    fail(problems, 'CHECK_OPERAND', path, 'an operand mapping is {from: tool.field}, what an earlier tool in the session returned');
    return undefined;
  }
  const from = parseFrom(source);
  if (from === undefined) {
    fail(
      problems,
      'CHECK_OPERAND',
      `${path}/from`,
      'from names a tool, a dot, then a field of its result, such as check_stock.in_stock (the tool name has no dot)',
    );
    return undefined;
  }
  return { from };
}

/**
 * Splits a `from` operand into the tool and the field of its result; undefined when it is not one.
 *
 * @example
 * parseFrom('check_stock.in_stock') // { tool: 'check_stock', field: 'in_stock' }
 */
export function parseFrom(source: string): { tool: string; field: string } | undefined {
  const match = FROM.exec(source);
  return match === null ? undefined : { tool: match[1] as string, field: match[2] as string };
}

function readList(raw: unknown[], path: string, problems: Diagnostic[]): Operand | undefined {
  if (raw.length === 0 || raw.length > MAX_CHECK_LIST) {
    fail(problems, 'CHECK_OPERAND', path, `list 1 to ${MAX_CHECK_LIST} values`);
    return undefined;
  }
  const list: Literal[] = [];
  raw.forEach((item, i) => {
    const at = childPointer(path, i);
    const literal = readLiteral(item, at, problems);
    if (literal === undefined) return;
    if (list.some((seen) => sameLiteral(seen, literal))) {
      fail(problems, 'CHECK_OPERAND', at, 'this value is listed twice; list each once');
      return;
    }
    list.push(literal);
  });
  return list.length === raw.length ? { value: list } : undefined;
}

function readLiteral(raw: unknown, path: string, problems: Diagnostic[]): Literal | undefined {
  if (typeof raw === 'string') return { string: raw };
  if (typeof raw === 'boolean') return { boolean: raw };
  if (typeof raw === 'number') {
    if (Number.isSafeInteger(raw)) return { decimal: String(raw) };
    fail(
      problems,
      'CHECK_OPERAND',
      path,
      'this number cannot be read exactly; write an integer below 2^53, or plain digits such as 10.50 in YAML',
    );
    return undefined;
  }
  if (raw instanceof DecimalNumber) {
    if (isDecimalValue(raw.text, true)) return { decimal: raw.text };
    fail(problems, 'CHECK_OPERAND', path, 'a decimal has at most 18 digits after the point');
    return undefined;
  }
  fail(problems, 'CHECK_OPERAND', path, 'expected a value: a string, true or false, or a number such as 10 or 10.50');
  return undefined;
}

function sameLiteral(a: Literal, b: Literal): boolean {
  if ('decimal' in a) return 'decimal' in b && compareDecimal(a.decimal, b.decimal) === 0;
  if ('string' in a) return 'string' in b && a.string === b.string;
  return 'boolean' in b && a.boolean === b.boolean;
}

/**
 * Reads a list of checks; undefined when the value is not a list or any check has a problem.
 *
 * @example
 * validateChecks([{ field: 'amount', over: 10 }], '/tools/0/checks', problems) // [{ field: 'amount', op: 'over', value: { decimal: '10' } }]
 */
export function validateChecks(list: unknown, path: string, problems: Diagnostic[]): Check[] | undefined {
  if (!Array.isArray(list)) {
    fail(problems, 'CHECK_INVALID', path, 'checks is a list of checks, such as [{field: quantity, at_most: 10}]');
    return undefined;
  }
  const checks: Check[] = [];
  list.forEach((item, i) => {
    const check = readCheck(item, childPointer(path, i), problems);
    if (check) checks.push(check);
  });
  return checks.length === list.length ? checks : undefined;
}

/**
 * Decides a check for a call: TRUE or FALSE when its values can be read, UNKNOWN when the argument is
 * missing or of another type, or `from` finds no earlier call of its tool, or no such field in the most
 * recent one's result. The tool check refuses on anything but TRUE.
 *
 * @example
 * evaluateCheck({ field: 'quantity', op: 'at_most', from: { tool: 'check_stock', field: 'in_stock' } },
 *   { quantity: 3 }, [{ tool: 'check_stock', result: { in_stock: 5 } }]) // TRUE
 */
export function evaluateCheck(check: Check, args: unknown, history: readonly SessionCall[]): Tri {
  const value = readField(args, check.field);
  if (value === MISSING) return UNKNOWN;
  let operand: Literal | Literal[] | undefined = check.value;
  if (check.from !== undefined) {
    const earlier = readEarlier(history, check.from.tool, check.from.field);
    if (earlier === MISSING) return UNKNOWN;
    if (earlier instanceof JsonNumber && NUMERIC_OPS.has(check.op)) return againstKeptNumber(check.op, value, earlier);
    operand = LIST_OPS.has(check.op) ? literalList(earlier) : NUMERIC_OPS.has(check.op) ? numberOf(earlier) : literalOf(earlier);
  }
  if (operand === undefined) return UNKNOWN;
  switch (check.op) {
    case 'is':
      return Array.isArray(operand) ? UNKNOWN : equalsLiteral(value, operand);
    case 'is_not':
      return Array.isArray(operand) ? UNKNOWN : not(equalsLiteral(value, operand));
    case 'in':
      return Array.isArray(operand) ? inList(value, operand) : UNKNOWN;
    case 'not_in':
      return Array.isArray(operand) ? not(inList(value, operand)) : UNKNOWN;
    default:
      return Array.isArray(operand) || !('decimal' in operand) ? UNKNOWN : compareNumber(check.op, value, operand.decimal);
  }
}

/**
 * A bound an earlier tool returned as a number kept as written (`in_stock: 2.9999999999999999`): the check
 * holds or fails only when both readings of the bound agree (docs/policy.md, "Numbers in arguments").
 */
function againstKeptNumber(op: CheckOp, value: unknown, bound: JsonNumber): Tri {
  const readings = keptNumberReadings(bound);
  if (readings === undefined) return UNKNOWN;
  const asWritten = compareNumber(op, value, readings[0]);
  return asWritten === compareNumber(op, value, readings[1]) ? asWritten : UNKNOWN;
}

/** The most recent earlier call of `tool`: the field of its result, or MISSING. */
function readEarlier(history: readonly SessionCall[], tool: string, field: string): unknown {
  for (let i = history.length - 1; i >= 0; i--) {
    const call = history[i];
    if (call?.tool === tool) return readField(call.result, field);
  }
  return MISSING;
}

/** Reads a dotted field (`shipping.country`) through objects, and arrays by index. */
export function readField(root: unknown, field: string): unknown {
  let current = root;
  let start = 0;
  for (;;) {
    const dot = field.indexOf('.', start);
    const end = dot === -1 ? field.length : dot;
    current = step(current, field.slice(start, end));
    if (current === MISSING || dot === -1) return current;
    start = dot + 1;
  }
}

/** What an earlier tool returned, as a literal of its own type; undefined when it is none. */
function literalOf(value: unknown): Literal | undefined {
  if (typeof value === 'string') return { string: value };
  if (typeof value === 'boolean') return { boolean: value };
  if (typeof value === 'number' && Number.isSafeInteger(value)) return { decimal: String(value) };
  return undefined;
}

function numberOf(value: unknown): Literal | undefined {
  const n = readNumeric(value);
  return n === undefined ? undefined : { decimal: n };
}

function literalList(value: unknown): Literal[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list: Literal[] = [];
  for (const item of value) {
    const literal = literalOf(item);
    if (literal !== undefined) list.push(literal);
  }
  return list;
}

/** Type-strict equality: a string literal needs a string, a boolean a boolean, a decimal a readable number. */
function equalsLiteral(value: unknown, literal: Literal): Tri {
  if ('string' in literal) return typeof value === 'string' ? (value === literal.string ? TRUE : FALSE) : UNKNOWN;
  if ('boolean' in literal) return typeof value === 'boolean' ? (value === literal.boolean ? TRUE : FALSE) : UNKNOWN;
  return compareNumeric(value, 'eq', literal.decimal);
}

/** TRUE when the value equals a member; FALSE only when some member has the value's type (as policy `in`). */
function inList(value: unknown, list: readonly Literal[]): Tri {
  let comparable = false;
  for (const literal of list) {
    const r = equalsLiteral(value, literal);
    if (r === TRUE) return TRUE;
    if (r === FALSE) comparable = true;
  }
  return comparable ? FALSE : UNKNOWN;
}

const NUMERIC: Record<string, NumericOp> = { over: 'gt', under: 'lt', at_least: 'gte', at_most: 'lte' };

function compareNumber(op: CheckOp, value: unknown, bound: string): Tri {
  return compareNumeric(value, NUMERIC[op] ?? 'lte', bound);
}

function not(t: Tri): Tri {
  return t === TRUE ? FALSE : t === FALSE ? TRUE : UNKNOWN;
}
