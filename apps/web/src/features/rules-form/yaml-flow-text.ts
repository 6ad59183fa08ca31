// Form values as the YAML text of one node on its key's line: scalars, or flow collections such as
// [a, b] and {amount_over: 200}, printed by the yaml package with numbers kept as their written digits.
import { Document, parseDocument, Scalar, type ScalarTag, type Tags, visit } from 'yaml';

/** A number as the author wrote it (`200.50`), so no float ever rounds what a sheet compares with. */
export class WrittenNumber {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

export type FlowValue = string | boolean | WrittenNumber | FlowValue[] | { [key: string]: FlowValue };

const writtenNumberTag: ScalarTag = {
  tag: 'tag:yaml.org,2002:float',
  default: true,
  identify: (value) => value instanceof WrittenNumber,
  // Everything YAML would read as a number stays its text; the engine decides which it can state exactly.
  test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$|^0x[0-9a-fA-F]+$|^0o[0-7]+$|^[-+]?\.(?:inf|Inf|INF)$|^\.(?:nan|NaN|NAN)$/,
  resolve: (source) => new WrittenNumber(source),
  stringify: (item) => (item.value as WrittenNumber).text,
};

// Control characters (tab and newline among them) and the Unicode line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to find
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// First in the list, so a plain scalar that looks like a number resolves to a WrittenNumber.
const withWrittenNumbers = (tags: Tags): Tags => [writtenNumberTag, ...tags];

/**
 * The YAML text of one value, on one line.
 *
 * @example
 * flowText(['supervisor_approved']) // '[supervisor_approved]'
 * flowText({ amount_over: new WrittenNumber('200.50') }) // '{amount_over: 200.50}'
 */
export function flowText(value: FlowValue): string {
  const doc = new Document(value, { customTags: withWrittenNumbers, flow: true });
  // A sheet refuses tabs and values past their key's line: such characters go as escapes in double quotes.
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && UNPRINTABLE.test(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return doc.toString({ lineWidth: 0, minContentWidth: 0, flowCollectionPadding: false, blockQuote: false }).replace(/\n$/, '');
}

/**
 * What a person typed into a value field, read as one YAML scalar: `200` and `200.50` are numbers,
 * `true` a boolean, `"200"` and `gold` strings.
 *
 * @example
 * scalarOf('99.50') // WrittenNumber { text: '99.50' }
 */
export function scalarOf(typed: string): string | boolean | WrittenNumber {
  const text = typed.trim();
  if (text === '') return '';
  const doc = parseDocument(text, { customTags: withWrittenNumbers });
  const value = doc.errors.length === 0 ? doc.toJS() : undefined;
  // A WrittenNumber survives toJS unchanged: it is the resolved value of its scalar.
  if (value instanceof WrittenNumber || typeof value === 'string' || typeof value === 'boolean') return value;
  // Anything else (a list, null) is taken as the words typed; the engine says what it makes of them.
  return text;
}

/**
 * A check as a person wrote it (`{field: quantity, at_most: 10}`), read into a value flowText prints
 * back; an error when it is not one YAML value on one line.
 *
 * @example
 * readFlowValue('{field: country, in: [DE, FR]}') // { ok: true, value: { field: 'country', in: ['DE', 'FR'] } }
 */
export function readFlowValue(typed: string): { ok: true; value: FlowValue } | { ok: false; reason: string } {
  if (typed.includes('\n')) return { ok: false, reason: 'a check is written on one line' };
  const doc = parseDocument(typed, { customTags: withWrittenNumbers });
  const error = doc.errors[0];
  if (error) return { ok: false, reason: `not YAML: ${error.message.split('\n')[0]}` };
  if (doc.contents === null) return { ok: false, reason: 'a check is a mapping such as {field: quantity, at_most: 10}' };
  return { ok: true, value: doc.toJS() as FlowValue };
}
