// Reads JSON text exactly: syntax errors with positions, duplicate members and inexact numbers refused,
// size and depth bounded before parsing so hostile input cannot exhaust the stack.
import { type Node, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import type { Diagnostic, Range } from './diagnostic.ts';
import { positionAt } from './diagnostic.ts';
import { arrayIndex, childPointer, parsePointer } from './json-pointer.ts';

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
  | { ok: false; diagnostic: Diagnostic };

/**
 * Parses JSON text the way a policy must be read: every number literal exact, every member once.
 *
 * @example
 * const r = readJsonText('{"a": 1}');
 * if (r.ok) r.value; // { a: 1 }
 */
export function readJsonText(text: string, limits: JsonTextLimits = DEFAULT_JSON_LIMITS): JsonTextResult {
  if (text.length > limits.maxLength) {
    return fatal('TOO_LARGE', `the text is ${text.length} characters; the limit is ${limits.maxLength}`);
  }
  const depth = measureDepth(text, limits.maxDepth);
  if (depth.exceededAt >= 0) {
    return fatal('TOO_DEEP', `arrays and objects nest deeper than ${limits.maxDepth} levels`, rangeAt(text, depth.exceededAt, 1));
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (first !== undefined || tree === undefined) {
    const offset = first?.offset ?? 0;
    const what = first ? describeParseError(printParseErrorCode(first.error)) : 'no JSON value';
    const at = positionAt(text, offset);
    return fatal('NOT_JSON', `not JSON: ${what} at line ${at.line}, column ${at.column}`, rangeAt(text, offset, first?.length ?? 0));
  }
  const diagnostics: Diagnostic[] = [];
  const value = toValue(tree, '', text, diagnostics);
  return {
    ok: true,
    value,
    diagnostics,
    rangeOf: (pointer) => {
      const node = nodeAt(tree, pointer);
      return node ? rangeAt(text, node.offset, node.length) : undefined;
    },
  };
}

function fatal(code: string, message: string, range?: Range): JsonTextResult {
  return { ok: false, diagnostic: range ? { code, severity: 'error', message, range } : { code, severity: 'error', message } };
}

function rangeAt(text: string, offset: number, length: number): Range {
  return { start: positionAt(text, offset), end: positionAt(text, offset + length) };
}

function describeParseError(code: string): string {
  // jsonc-parser's codes are CamelCase ("CommaExpected"); say them as words.
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/** Scans brackets outside strings; returns the offset where nesting first passes the limit, else -1. */
function measureDepth(text: string, maxDepth: number): { exceededAt: number } {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > maxDepth) return { exceededAt: i };
    } else if (c === 93 /* ] */ || c === 125 /* } */) depth--;
  }
  return { exceededAt: -1 };
}

const EXACT_INTEGER = /^-?(?:0|[1-9][0-9]*)$/;

function toValue(node: Node, pointer: string, text: string, diagnostics: Diagnostic[]): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode || !valueNode) continue;
        const key = keyNode.value as string;
        const at = childPointer(pointer, key);
        if (Object.hasOwn(out, key)) {
          diagnostics.push({
            code: 'DUPLICATE_MEMBER',
            severity: 'error',
            path: at,
            message: `member "${key}" appears more than once; JSON readers disagree on which one counts`,
            range: rangeAt(text, keyNode.offset, keyNode.length),
          });
          continue;
        }
        // defineProperty keeps a "__proto__" member an ordinary member.
        Object.defineProperty(out, key, {
          value: toValue(valueNode, at, text, diagnostics),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((child, i) => toValue(child, childPointer(pointer, i), text, diagnostics));
    case 'number': {
      const literal = text.slice(node.offset, node.offset + node.length);
      const value = node.value as number;
      if (!EXACT_INTEGER.test(literal) || !Number.isSafeInteger(value)) {
        diagnostics.push({
          code: 'INEXACT_NUMBER',
          severity: 'error',
          path: pointer,
          message: `the number ${literal} cannot be read exactly; write an integer between -(2^53-1) and 2^53-1, or a decimal string`,
          range: rangeAt(text, node.offset, node.length),
        });
      }
      return value;
    }
    default:
      return node.value;
  }
}

function nodeAt(tree: Node, pointer: string): Node | undefined {
  const tokens = parsePointer(pointer);
  if (tokens === undefined) return undefined;
  let node: Node | undefined = tree;
  for (const token of tokens) {
    if (node?.type === 'array') {
      // The same index rule as resolvePointer: decimal, no leading zeros.
      const index = arrayIndex(token);
      node = index < 0 ? undefined : node.children?.[index];
    } else if (node?.type === 'object') {
      const property: Node | undefined = node.children?.find((p) => p.children?.[0]?.value === token);
      node = property?.children?.[1];
    } else return undefined;
  }
  return node;
}
