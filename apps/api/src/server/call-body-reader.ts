// The gate's body read in one pass, for the shapes agents send: an object of members whose values are strings,
// numbers, booleans, null and shallow objects and arrays. It builds exactly the value the engine's exact reader
// (readJsonText) builds, or answers undefined ("not mine") and leaves the text to that reader, which then gives the
// value or the refusal: anything unusual (a syntax error, a duplicated member, a `__proto__` member, nesting deeper
// than FAST_DEPTH, a text over the limit) goes there, so the two never differ on what is accepted or refused.
// call-body-reader.property.test.ts holds them to agreement on generated and mutated bodies; it shares no code with
// that reader (its string and number loops are written again here), so the property compares two readings. Besides the value it
// gives the arguments' canonical JSON when the text already is that (no spaces, keys sorted, no escapes), so the
// digest and the row's arguments need no second walk (docs/performance.md, "API gate").
import { JSON_ESCAPES, JsonNumber, type JsonTextLimits } from '@tollgate/engine/source';

/** What the fast reader read: the value, and the `arguments` member's text when it is its canonical JSON. */
export interface CallBodyRead {
  value: unknown;
  /**
   * The arguments' text as sent, when it equals both `canonicalJson(arguments)` (the digest's input) and
   * `writeJson(arguments)` (the row's): otherwise undefined, and those are written from the value.
   */
  argumentsText: string | undefined;
}

/**
 * Deepest nesting the fast reader takes (the body's object counts as one); deeper bodies go to the exact reader,
 * which holds them to its own limit. Far below any limit a caller gives, so this reader never meets one.
 */
export const FAST_DEPTH = 8;

// One reader per process, reset per body: the gate reads bodies one at a time, synchronously.
let text = '';
let at = 0;
/** Whether the value being read is, so far, written as its canonical JSON (see CallBodyRead). */
let canonical = true;
/** The deepest container read here: FAST_DEPTH, or the caller's limit when that is less. */
let deepest = FAST_DEPTH;

/**
 * The call body read in one pass, or undefined when the exact reader must read it.
 *
 * @example
 * readCallBody('{"tool":"issue_refund","arguments":{"amount":"50"}}', { maxLength: 1024, maxDepth: 72 })
 * // { value: { tool: 'issue_refund', arguments: { amount: '50' } }, argumentsText: '{"amount":"50"}' }
 */
export function readCallBody(body: string, limits: JsonTextLimits): CallBodyRead | undefined {
  if (body.length > limits.maxLength || limits.maxDepth < 1) return undefined;
  deepest = Math.min(FAST_DEPTH, limits.maxDepth);
  text = body;
  at = 0;
  try {
    skipSpace();
    if (text.charCodeAt(at) !== 123 /* { */) return undefined;
    at++;
    const value: Record<string, unknown> = {};
    let argumentsText: string | undefined;
    skipSpace();
    if (text.charCodeAt(at) === 125 /* } */) at++;
    else {
      for (;;) {
        const key = readKey(value);
        if (key === undefined) return undefined;
        const start = at;
        canonical = true;
        const member = readValue(2);
        if (member === NOT_MINE) return undefined;
        value[key] = member;
        if (key === 'arguments' && canonical && typeof member === 'object' && member !== null && !Array.isArray(member)) {
          argumentsText = text.slice(start, at);
        }
        skipSpace();
        const c = text.charCodeAt(at++);
        if (c === 125) break;
        if (c !== 44 /* , */) return undefined;
        skipSpace();
      }
    }
    skipSpace();
    if (at !== text.length) return undefined;
    return { value, argumentsText };
  } finally {
    text = '';
  }
}

const NOT_MINE = Symbol('not mine');

/** `"name":` at the cursor, a member `object` does not hold yet; undefined when it is not (or it does). */
function readKey(object: Record<string, unknown>): string | undefined {
  if (text.charCodeAt(at) !== 34 /* " */) return undefined;
  const key = readString();
  if (key === undefined || key === '__proto__' || Object.hasOwn(object, key)) return undefined;
  const end = at;
  skipSpace();
  if (text.charCodeAt(at) !== 58 /* : */) return undefined;
  at++;
  skipSpace();
  if (at !== end + 1) canonical = false;
  return key;
}

/** One value at the cursor, `depth` levels in (the body's own object is 1). */
function readValue(depth: number): unknown {
  const c = text.charCodeAt(at);
  if (c === 34) return readString() ?? NOT_MINE;
  if (c === 123) return depth > deepest ? NOT_MINE : readObject(depth);
  if (c === 91 /* [ */) return depth > deepest ? NOT_MINE : readArray(depth);
  if (c === 45 /* - */ || (c >= 48 && c <= 57)) return readNumber();
  if (text.startsWith('true', at)) {
    at += 4;
    return true;
  }
  if (text.startsWith('false', at)) {
    at += 5;
    return false;
  }
  if (text.startsWith('null', at)) {
    at += 4;
    return null;
  }
  return NOT_MINE;
}

function readObject(depth: number): unknown {
  at++;
  const object: Record<string, unknown> = {};
  if (spaceSkipped()) canonical = false;
  if (text.charCodeAt(at) === 125) {
    at++;
    return object;
  }
  let previous: string | undefined;
  for (;;) {
    const key = readKey(object);
    if (key === undefined) return NOT_MINE;
    // canonicalJson sorts keys by code unit, and writeJson writes them in Object.keys order, which puts
    // integer-like keys first: the text is both only when its keys ascend and none starts with a digit.
    if (canonical) {
      const first = key.charCodeAt(0);
      if ((previous !== undefined && !(previous < key)) || (first >= 48 && first <= 57)) canonical = false;
    }
    previous = key;
    const member = readValue(depth + 1);
    if (member === NOT_MINE) return NOT_MINE;
    object[key] = member;
    if (spaceSkipped()) canonical = false;
    const c = text.charCodeAt(at++);
    if (c === 125) return object;
    if (c !== 44) return NOT_MINE;
    if (spaceSkipped()) canonical = false;
  }
}

function readArray(depth: number): unknown {
  at++;
  const array: unknown[] = [];
  if (spaceSkipped()) canonical = false;
  if (text.charCodeAt(at) === 93 /* ] */) {
    at++;
    return array;
  }
  for (;;) {
    const item = readValue(depth + 1);
    if (item === NOT_MINE) return NOT_MINE;
    array.push(item);
    if (spaceSkipped()) canonical = false;
    const c = text.charCodeAt(at++);
    if (c === 93) return array;
    if (c !== 44) return NOT_MINE;
    if (spaceSkipped()) canonical = false;
  }
}

/** A string at the cursor (its opening quote), unescaped as the exact reader does; undefined when it is not one. */
function readString(): string | undefined {
  const start = at + 1;
  let i = start;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      at = i + 1;
      return text.slice(start, i);
    }
    // Past the end charCodeAt is NaN: neither a quote nor allowed.
    if (!(c >= 32) || c === 92) break;
    // JSON.stringify escapes a lone surrogate: a string holding any is not written as its canonical JSON.
    if (c >= 0xd800 && c <= 0xdfff) canonical = false;
    i++;
  }
  if (text.charCodeAt(i) !== 92) return undefined;
  canonical = false;
  let out = text.slice(start, i);
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      at = i + 1;
      return out;
    }
    if (!(c >= 32)) return undefined;
    if (c !== 92) {
      const run = i;
      for (;;) {
        const r = text.charCodeAt(i);
        if (r === 34 || r === 92 || !(r >= 32)) break;
        i++;
      }
      out += text.slice(run, i);
      continue;
    }
    const e = text.charCodeAt(i + 1);
    const simple = JSON_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      i += 2;
    } else if (e === 117 /* u */) {
      let unit = 0;
      for (let k = i + 2; k < i + 6; k++) {
        const h = hexValue(text.charCodeAt(k));
        if (h < 0) return undefined;
        unit = unit * 16 + h;
      }
      out += String.fromCharCode(unit);
      i += 6;
    } else return undefined;
  }
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

/**
 * A number at the cursor, as the exact reader keeps it: a canonical safe integer as a number (`-0` is not
 * one), any other lexeme as a JsonNumber.
 */
function readNumber(): unknown {
  const start = at;
  let i = start;
  const negative = text.charCodeAt(i) === 45;
  if (negative) i++;
  const first = text.charCodeAt(i);
  if (first === 48) i++;
  else if (first >= 49 && first <= 57) i = digits(i);
  else return NOT_MINE;
  const integerEnd = i;
  if (text.charCodeAt(i) === 46 /* . */) {
    const end = digits(i + 1);
    if (end === i + 1) return NOT_MINE;
    i = end;
  }
  const e = text.charCodeAt(i);
  if (e === 101 || e === 69 /* e E */) {
    i++;
    const sign = text.charCodeAt(i);
    if (sign === 43 || sign === 45) i++;
    const end = digits(i);
    if (end === i) return NOT_MINE;
    i = end;
  }
  at = i;
  const lexeme = text.slice(start, i);
  // At most 16 digits, no fraction or exponent, and not -0: the exact reader's EXACT_INTEGER.
  const length = integerEnd - start - (negative ? 1 : 0);
  if (i === integerEnd && length <= 16 && !(negative && first === 48)) {
    const n = Number(lexeme);
    if (Number.isSafeInteger(n)) return n;
  }
  return new JsonNumber(lexeme);
}

function digits(from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (!(c >= 48 && c <= 57)) return i;
    i++;
  }
}

function skipSpace(): void {
  for (;;) {
    const c = text.charCodeAt(at);
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return;
    at++;
  }
}

/** Skips whitespace; whether there was any. */
function spaceSkipped(): boolean {
  const from = at;
  skipSpace();
  return at !== from;
}
