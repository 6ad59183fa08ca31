// A sheet's YAML parsed with source offsets, and the offsets-to-lines helpers the form's reader and
// writer share: both work on the text's own ranges, so an edit replaces only the node it touches.
import { isMap, isScalar, isSeq, LineCounter, type Node, type Pair, parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';

export interface SheetDocument {
  text: string;
  /** The `rules:` pair, when the top level is a block mapping holding one. */
  rulesPair: Pair<Node, Node | null> | undefined;
  /** The block list of rules under `rules:`; undefined when there is none (empty, `[]` or another shape). */
  rules: YAMLSeq<Node | null> | undefined;
  lineOf(offset: number): number;
}

export type SheetDocumentRead = { ok: true; sheet: SheetDocument } | { ok: false; reason: string };

/**
 * Parses a sheet for the form; refuses only what the form cannot hold (YAML errors, a top level that is
 * not a mapping with `rules:`). What the engine refuses inside a rule is left for the engine to say.
 *
 * @example
 * readSheetDocument('rules:\n  - action: a\n    never: true\n').ok // true
 */
export function readSheetDocument(text: string): SheetDocumentRead {
  // The form reads the text it has just written (the edit parses the text before it, the rows the text
  // after it): the last read is kept, so a keystroke parses the sheet once. Nothing mutates a read.
  if (last?.text === text) return last.read;
  const read = parseSheetDocument(text);
  last = { text, read };
  return read;
}

let last: { text: string; read: SheetDocumentRead } | undefined;

function parseSheetDocument(text: string): SheetDocumentRead {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false, prettyErrors: false });
  const error = doc.errors[0];
  if (error)
    return { ok: false, reason: `the YAML does not read (line ${lines.linePos(error.pos[0]).line}): ${error.message.split('\n')[0]}` };
  const top = doc.contents;
  if (!isMap(top) || top.flow) return { ok: false, reason: 'a sheet is one mapping with the key rules:' };
  const rulesPair = (top as YAMLMap<Node, Node | null>).items.find((pair) => keyOf(pair) === 'rules');
  if (!rulesPair) return { ok: false, reason: 'the sheet has no rules: key' };
  const value = rulesPair.value;
  const rules = isSeq(value) && !value.flow ? (value as YAMLSeq<Node | null>) : undefined;
  if (!rules && !(isSeq(value) && value.items.length === 0) && !isEmptyScalar(value)) {
    return { ok: false, reason: 'rules: holds a block list of rules, one "- action: ..." each' };
  }
  return { ok: true, sheet: { text, rulesPair, rules, lineOf: (offset) => lines.linePos(offset).line } };
}

/** A pair's key as text: `action`, `when`, or whatever else the author wrote. */
export function keyOf(pair: Pair<unknown, unknown>): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** A value that is not there: `key:` with nothing after it. */
export function isEmptyScalar(node: Node | null | undefined): boolean {
  return node === null || node === undefined || (isScalar(node) && node.value === null && (node.source ?? '') === '');
}

/** The offset where the line holding `offset` starts. */
export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset of the newline ending the line holding `offset` (or the text's end). */
export function lineEnd(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end;
}
