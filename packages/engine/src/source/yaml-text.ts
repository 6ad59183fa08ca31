// Reads YAML text into plain values with every number exact and every node's place known: a plain
// scalar with a fraction stays its written digits (DecimalNumber), never a float.
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseAllDocuments, type Scalar } from 'yaml';
import { type Diagnostic, placed, type Range } from './diagnostic.ts';
import { childPointer } from './json-pointer.ts';

/** A number written with a fraction (`10.50`), kept as its digits so it compares exactly. */
export class DecimalNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

const INTEGER = /^-?(?:0|[1-9][0-9]*)$/;
const FRACTION = /^-?(?:0|[1-9][0-9]*)\.[0-9]+$/;

export type YamlTextResult =
  | { ok: true; value: unknown; diagnostics: Diagnostic[]; rangeOf(pointer: string): Range | undefined }
  | { ok: false; diagnostic: Diagnostic };

/**
 * Parses one YAML document. Syntax errors, a second document and duplicate keys are refused with
 * their line; a number that cannot be read exactly (`1e3`, `0x10`, `.inf`, an integer past 2^53-1) is
 * an INEXACT_NUMBER diagnostic at its path and line.
 *
 * @example
 * readYamlText('at_most: 10.50').value // { at_most: DecimalNumber { text: '10.50' } }
 */
export function readYamlText(text: string, maxLength = 4 * 1024 * 1024): YamlTextResult {
  if (text.length > maxLength) {
    return {
      ok: false,
      diagnostic: { code: 'TOO_LARGE', severity: 'error', message: `the text is ${text.length} characters; the limit is ${maxLength}` },
    };
  }
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const range = (offsets: readonly number[] | undefined): Range | undefined => {
    if (!offsets) return undefined;
    const a = lines.linePos(offsets[0] ?? 0);
    const b = lines.linePos(offsets[1] ?? offsets[0] ?? 0);
    return { start: { line: a.line, column: a.col }, end: { line: b.line, column: b.col } };
  };
  const list = Array.isArray(docs) ? docs : [];
  if (list.length > 1) {
    const second = list[1];
    return {
      ok: false,
      diagnostic: {
        code: 'NOT_YAML',
        severity: 'error',
        message: 'a second YAML document; a file holds one',
        ...placed(range(second?.range)),
      },
    };
  }
  const doc = list[0];
  const error = doc?.errors[0];
  if (error) {
    const r = range(error.pos);
    return {
      ok: false,
      diagnostic: { code: 'NOT_YAML', severity: 'error', message: `not YAML: ${error.message.split('\n')[0]}`, ...placed(r) },
    };
  }
  const diagnostics: Diagnostic[] = [];
  const places = new Map<string, Range>();
  const value = doc?.contents ? toValue(doc.contents, '', diagnostics, places, range) : null;
  return { ok: true, value, diagnostics, rangeOf: (pointer) => places.get(pointer) };
}

function toValue(
  node: Node | null,
  pointer: string,
  diagnostics: Diagnostic[],
  places: Map<string, Range>,
  range: (o: readonly number[] | undefined) => Range | undefined,
): unknown {
  const r = range(node?.range ?? undefined);
  if (r) places.set(pointer, r);
  if (node === null) return null;
  if (isMap(node)) {
    const out: Record<string, unknown> = {};
    for (const pair of node.items) {
      if (!isPair(pair)) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      const at = childPointer(pointer, key);
      Object.defineProperty(out, key, {
        value: toValue(pair.value as Node | null, at, diagnostics, places, range),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      const keyRange = range((pair.key as Node | null)?.range ?? undefined);
      if (keyRange && !places.has(at)) places.set(at, keyRange);
    }
    return out;
  }
  if (isSeq(node)) return node.items.map((item, i) => toValue(item as Node | null, childPointer(pointer, i), diagnostics, places, range));
  if (isAlias(node)) {
    diagnostics.push({
      code: 'UNSUPPORTED_YAML',
      severity: 'error',
      path: pointer,
      message: 'aliases are not read here; write the value out',
      ...placed(r),
    });
    return null;
  }
  if (isScalar(node)) return scalarValue(node, pointer, diagnostics, r);
  return null;
}

function scalarValue(node: Scalar, pointer: string, diagnostics: Diagnostic[], r: Range | undefined): unknown {
  if (typeof node.value !== 'number' && typeof node.value !== 'bigint') return node.value;
  const source = node.source ?? String(node.value);
  if (INTEGER.test(source) && Number.isSafeInteger(Number(source))) return Number(source);
  if (FRACTION.test(source)) return new DecimalNumber(source);
  diagnostics.push({
    code: 'INEXACT_NUMBER',
    severity: 'error',
    path: pointer,
    message: `the number ${source} cannot be read exactly; write plain digits such as 12 or 10.50`,
    ...placed(r),
  });
  return Number.NaN;
}
