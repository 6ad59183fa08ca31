// Reads JSON text exactly, in one pass that builds the value: syntax errors with positions, every member
// once (a duplicate is reported, the first kept), numbers kept as written (json-number.ts), size and depth
// bounded as it goes, and no recursion, so hostile input can neither exhaust the stack nor take time
// growing faster than its length. Every JSON reader in Tollgate is this one (docs/architecture.md).
import { type Node, parseTree } from 'jsonc-parser';
import type { Diagnostic, Range } from './diagnostic.ts';
import { placed } from './diagnostic.ts';
import { JSON_ESCAPES } from './json-escapes.ts';
import { JsonNumber } from './json-number.ts';
import { childPointer } from './json-pointer.ts';
import { nodeAt, rangeAt } from './json-text-ranges.ts';

export interface JsonTextLimits {
  /** Longest text accepted, in UTF-16 code units. */
  maxLength: number;
  /** Deepest nesting of arrays and objects accepted. */
  maxDepth: number;
}

export const DEFAULT_JSON_LIMITS: JsonTextLimits = { maxLength: 4 * 1024 * 1024, maxDepth: 64 };

export type JsonTextResult =
  | {
      ok: true;
      value: unknown;
      /** Problems that make the text unfit to be stated exactly (duplicate members, inexact numbers). */
      diagnostics: Diagnostic[];
      /** The source range of the value at a pointer, for editor markers. */
      rangeOf(pointer: string): Range | undefined;
    }
  | {
      ok: false;
      diagnostic: Diagnostic;
      /**
       * The outermost object or array as far as it was read: the members and items read whole before the
       * failure (a JSON-RPC reader answers a broken request with the id it could read; docs/mcp.md).
       */
      partial?: unknown;
    };

/**
 * Parses JSON text the way a policy or a call must be read: every member once, every number as written.
 * A canonical safe integer reads as a JavaScript number; any other number as a {@link JsonNumber} with its
 * lexeme, reported as INEXACT_NUMBER for readers (documents) that accept only exact integers.
 *
 * @example
 * const r = readJsonText('{"a": 1, "b": 1.50}');
 * if (r.ok) r.value; // { a: 1, b: JsonNumber { lexeme: '1.50' } }
 */
export function readJsonText(text: string, limits: JsonTextLimits = DEFAULT_JSON_LIMITS): JsonTextResult {
  if (text.length > limits.maxLength) {
    return fatal('TOO_LARGE', `the text is ${text.length} characters; the limit is ${limits.maxLength}`);
  }
  const reader = new Reader(text, limits.maxDepth);
  const value = reader.read();
  if (reader.failure !== undefined) {
    const partial = reader.partial();
    return { ok: false, diagnostic: reader.failure, ...(partial !== undefined ? { partial } : {}) };
  }
  let tree: Node | undefined;
  return {
    ok: true,
    value,
    diagnostics: reader.diagnostics,
    rangeOf: (pointer) => {
      // Positions are wanted by editors only: the tree is built on the first question (the text is
      // known to be JSON and within the depth limit, so jsonc-parser's recursion is bounded).
      tree ??= parseTree(text, [], { disallowComments: true, allowTrailingComma: false });
      const node = tree && nodeAt(tree, pointer);
      return node ? rangeAt(text, node.offset, node.length) : undefined;
    },
  };
}

function fatal(code: Diagnostic['code'], message: string, range?: Range): JsonTextResult {
  return { ok: false, diagnostic: failure(code, message, range) };
}

function failure(code: Diagnostic['code'], message: string, range?: Range): Diagnostic {
  return { code, severity: 'error', message, ...placed(range) };
}

/** An object or array being read, with the member whose value comes next. */
interface Frame {
  container: Record<string, unknown> | unknown[];
  /** Member name (objects) of the value being read; undefined for arrays. */
  key: string | undefined;
  /** The value being read repeats a member: read it (for syntax and depth), then drop it. */
  duplicate: boolean;
  /** Index of the value being read (arrays). */
  index: number;
}

const EXACT_INTEGER = /^-?(?:0|[1-9][0-9]{0,15})$/;

/** The reader's state: a cursor, a stack of open containers, and what it found. */
class Reader {
  private i = 0;
  private readonly stack: Frame[] = [];
  private lineStarts: number[] | undefined;
  readonly diagnostics: Diagnostic[] = [];
  failure: Diagnostic | undefined;
  /** The outermost container once opened (or the whole value once read): what a failure leaves read. */
  private root: unknown;
  /** A member of the outermost object placed, but not yet followed by its comma or closing brace. */
  private unfinished: string | undefined;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  read(): unknown {
    const { text, stack } = this;
    this.skipSpace();
    for (;;) {
      // Read one value at the cursor; an object or array with members opens a frame and reads its first.
      let value: unknown;
      const c = text.charCodeAt(this.i);
      if (c === 123 /* { */ || c === 91 /* [ */) {
        if (stack.length >= this.maxDepth) {
          return this.fail('TOO_DEEP', `arrays and objects nest deeper than ${this.maxDepth} levels`, this.i, 1, this.pointer());
        }
        const isObject = c === 123;
        this.i++;
        this.skipSpace();
        if (text.charCodeAt(this.i) === (isObject ? 125 : 93)) {
          this.i++;
          value = isObject ? {} : [];
        } else {
          const frame: Frame = { container: isObject ? {} : [], key: undefined, duplicate: false, index: 0 };
          if (stack.length === 0) this.root = frame.container;
          stack.push(frame);
          if (isObject && !this.readKey(frame)) return undefined;
          continue;
        }
      } else if (c === 34 /* " */) {
        value = this.readString();
      } else if (c === 45 /* - */ || (c >= 48 && c <= 57)) {
        value = this.readNumber();
      } else if (text.startsWith('true', this.i)) {
        this.i += 4;
        value = true;
      } else if (text.startsWith('false', this.i)) {
        this.i += 5;
        value = false;
      } else if (text.startsWith('null', this.i)) {
        this.i += 4;
        value = null;
      } else {
        return this.fail('NOT_JSON', 'value expected', this.i, 1);
      }
      if (this.failure !== undefined) return undefined;
      // Place the value, then close every container that ends here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) {
          this.root = value;
          this.skipSpace();
          if (this.i < text.length) return this.fail('NOT_JSON', 'end of file expected', this.i, 1);
          return value;
        }
        this.place(top, value);
        if (stack.length === 1 && top.key !== undefined && !top.duplicate) this.unfinished = top.key;
        this.skipSpace();
        const d = text.charCodeAt(this.i);
        const isObject = top.key !== undefined;
        if (d === 44 /* , */) {
          this.unfinished = undefined;
          this.i++;
          this.skipSpace();
          if (isObject) {
            if (!this.readKey(top)) return undefined;
          } else top.index++;
          break;
        }
        if (d === (isObject ? 125 : 93)) {
          this.unfinished = undefined;
          this.i++;
          stack.pop();
          value = top.container;
          continue;
        }
        return this.fail('NOT_JSON', isObject ? 'comma or close brace expected' : 'comma or close bracket expected', this.i, 1);
      }
    }
  }

  /** What a failure leaves read: the outermost container, a member counting once its comma or `}` is read. */
  partial(): unknown {
    const root = this.root;
    if (this.unfinished === undefined || root === null || typeof root !== 'object' || Array.isArray(root)) return root;
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(root)) {
      if (key === this.unfinished) continue;
      Object.defineProperty(copy, key, {
        value: (root as Record<string, unknown>)[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return copy;
  }

  private place(frame: Frame, value: unknown): void {
    if (frame.key === undefined) {
      (frame.container as unknown[]).push(value);
      return;
    }
    if (frame.duplicate) return;
    const object = frame.container as Record<string, unknown>;
    // defineProperty keeps a "__proto__" member an ordinary member.
    if (frame.key === '__proto__') {
      Object.defineProperty(object, frame.key, { value, enumerable: true, writable: true, configurable: true });
    } else object[frame.key] = value;
  }

  /** Reads `"name" :` at the cursor into the frame; false (with the failure set) when it is not there. */
  private readKey(frame: Frame): boolean {
    const { text } = this;
    if (text.charCodeAt(this.i) !== 34) {
      this.fail('NOT_JSON', 'property name expected', this.i, 1);
      return false;
    }
    const offset = this.i;
    const key = this.readString();
    if (key === undefined) return false;
    const keyLength = this.i - offset;
    this.skipSpace();
    if (text.charCodeAt(this.i) !== 58 /* : */) {
      this.fail('NOT_JSON', 'colon expected', this.i, 1);
      return false;
    }
    this.i++;
    this.skipSpace();
    frame.duplicate = Object.hasOwn(frame.container, key);
    frame.key = key;
    if (frame.duplicate) {
      this.diagnostics.push({
        code: 'DUPLICATE_MEMBER',
        severity: 'error',
        path: this.pointer(),
        message: `member "${key}" appears more than once; JSON readers disagree on which one counts`,
        ...placed(this.rangeOf(offset, keyLength)),
      });
    }
    return true;
  }

  private readString(): string | undefined {
    const { text } = this;
    const start = this.i + 1;
    let i = start;
    // The common case, a string without escapes, is one slice.
    for (;;) {
      if (i >= text.length) return this.fail('NOT_JSON', 'unexpected end of string', text.length, 0);
      const c = text.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        return text.slice(start, i);
      }
      if (c === 92 /* \ */) break;
      if (c < 32) return this.fail('NOT_JSON', 'invalid character in string', i, 1);
      i++;
    }
    let out = text.slice(start, i);
    for (;;) {
      if (i >= text.length) return this.fail('NOT_JSON', 'unexpected end of string', text.length, 0);
      const c = text.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        return out;
      }
      if (c < 32) return this.fail('NOT_JSON', 'invalid character in string', i, 1);
      if (c !== 92) {
        const run = i;
        while (i < text.length) {
          const r = text.charCodeAt(i);
          if (r === 34 || r === 92 || r < 32) break;
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
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) return this.fail('NOT_JSON', 'invalid unicode escape', i, 2);
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
      } else return this.fail('NOT_JSON', 'invalid escape character', i, 2);
    }
  }

  private readNumber(): unknown {
    const { text } = this;
    const start = this.i;
    let i = start;
    if (text.charCodeAt(i) === 45) i++;
    const first = text.charCodeAt(i);
    if (first === 48) i++;
    else if (first >= 49 && first <= 57) i = digits(text, i);
    else return this.fail('NOT_JSON', 'invalid number format', start, i - start + 1);
    if (text.charCodeAt(i) === 46 /* . */) {
      const end = digits(text, i + 1);
      if (end === i + 1) return this.fail('NOT_JSON', 'invalid number format', start, end - start);
      i = end;
    }
    const e = text.charCodeAt(i);
    if (e === 101 || e === 69 /* e E */) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      const end = digits(text, i);
      if (end === i) return this.fail('NOT_JSON', 'invalid number format', start, end - start);
      i = end;
    }
    this.i = i;
    const lexeme = text.slice(start, i);
    if (EXACT_INTEGER.test(lexeme) && lexeme !== '-0') {
      const n = Number(lexeme);
      if (Number.isSafeInteger(n)) return n;
    }
    this.diagnostics.push({
      code: 'INEXACT_NUMBER',
      severity: 'error',
      path: this.pointer(),
      message: `the number ${lexeme} cannot be read exactly; write an integer between -(2^53-1) and 2^53-1, or a decimal string`,
      ...placed(this.rangeOf(start, i - start)),
    });
    return new JsonNumber(lexeme);
  }

  private skipSpace(): void {
    const { text } = this;
    let i = this.i;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      i++;
    }
    this.i = i;
  }

  /** The JSON Pointer of the value being read, built only for a diagnostic. */
  private pointer(): string {
    let pointer = '';
    for (const frame of this.stack) pointer = childPointer(pointer, frame.key ?? frame.index);
    return pointer;
  }

  private fail(code: Diagnostic['code'], message: string, offset: number, length: number, path?: string): undefined {
    if (this.failure === undefined) {
      const range = this.rangeOf(offset, length);
      const text = code === 'NOT_JSON' ? `not JSON: ${message} at line ${range.start.line}, column ${range.start.column}` : message;
      // Only a nesting failure has a place in the value; a syntax error has none (its range says where).
      this.failure = path === undefined ? failure(code, text, range) : { ...failure(code, text, range), path };
    }
    return undefined;
  }

  /** Positions through a table of line starts built once, so many diagnostics stay linear. */
  private rangeOf(offset: number, length: number): Range {
    if (this.lineStarts === undefined) {
      const starts = [0];
      for (let i = 0; i < this.text.length; i++) if (this.text.charCodeAt(i) === 10) starts.push(i + 1);
      this.lineStarts = starts;
    }
    return { start: this.position(offset), end: this.position(offset + length) };
  }

  private position(offset: number): { line: number; column: number } {
    const starts = this.lineStarts as number[];
    const at = Math.min(offset, this.text.length);
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - (starts[lo] as number) + 1 };
  }
}

function digits(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    // Past the end charCodeAt is NaN, which is no digit either.
    if (!(c >= 48 && c <= 57)) return i;
    i++;
  }
}
