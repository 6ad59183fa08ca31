// Two versions of a document written in one canonical form, so their diff shows what changed and not how the text
// was laid out: each is read with the engine's exact reader of its format and written back with 2-space indents,
// block style for YAML, no comments, and every object's keys in the order the first version gives them.
import { DecimalNumber, isJsonNumber, readJsonText, readYamlText, writeJson } from '@tollgate/engine/source';
import { stringify } from 'yaml';

/** A version's text and how the page names it ("Version 3"). */
export interface NamedText {
  label: string;
  text: string;
}

export type CanonicalPair = { ok: true; original: string; modified: string } | { ok: false; why: string };

type Read = { ok: true; value: unknown } | { ok: false; why: string };

/**
 * Both texts in the canonical form of `language`, or why they cannot be: a text that is not JSON or YAML, one
 * that names a member twice (the canonical form would keep one, hiding the other), a YAML alias or a number
 * YAML cannot state exactly, or a language without a canonical form.
 *
 * @example
 * canonicalPair('json', { label: 'Version 1', text: '{"b": 1, "a": [1,2]}' }, { label: 'Version 2', text: '{"a":[1,2],"b":2}' })
 * // { ok: true, original: '{\n  "b": 1,\n  "a": [\n    1,\n    2\n  ]\n}\n', modified: '{\n  "b": 2,\n  "a": [\n ...' }
 */
export function canonicalPair(language: 'json' | 'yaml' | 'plaintext', original: NamedText, modified: NamedText): CanonicalPair {
  if (language === 'plaintext')
    return { ok: false, why: 'this kind of document has no canonical form: the diff shows the texts as stored' };
  const read = language === 'json' ? readJson : readYaml;
  const a = read(original);
  if (!a.ok) return a;
  const b = read(modified);
  if (!b.ok) return b;
  const write = language === 'json' ? writeIndentedJson : writeBlockYaml;
  try {
    return { ok: true, original: write(a.value), modified: write(orderLike(b.value, a.value)) };
  } catch (error) {
    return { ok: false, why: error instanceof Error ? error.message : 'the texts cannot be written again' };
  }
}

function readJson({ label, text }: NamedText): Read {
  const read = readJsonText(text);
  if (!read.ok) return { ok: false, why: `${label} cannot be read: ${placeOf(read.diagnostic)}${read.diagnostic.message}` };
  // A kept number (INEXACT_NUMBER) is written back as its lexeme; a member named twice is not written twice.
  const twice = read.diagnostics.find((d) => d.code === 'DUPLICATE_MEMBER');
  if (twice) return { ok: false, why: `${label} names a member twice (${placeOf(twice)}${twice.message})` };
  return { ok: true, value: read.value };
}

function readYaml({ label, text }: NamedText): Read {
  const read = readYamlText(text);
  if (!read.ok) return { ok: false, why: `${label} cannot be read: ${placeOf(read.diagnostic)}${read.diagnostic.message}` };
  const [problem] = read.diagnostics;
  if (problem) return { ok: false, why: `${label} cannot be written again exactly: ${placeOf(problem)}${problem.message}` };
  return { ok: true, value: read.value };
}

function placeOf(d: { line?: number; column?: number }): string {
  return d.line === undefined ? '' : `line ${d.line}, column ${d.column ?? 1}: `;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !isJsonNumber(value) && !(value instanceof DecimalNumber);
}

/** An element's `id` when it is a string: rules are matched by it, so a rule moved or inserted finds its twin. */
function idOf(value: unknown): string | undefined {
  return isRecord(value) && typeof value.id === 'string' ? value.id : undefined;
}

/**
 * `value` with every object's keys in the order `like` gives the same object (its own other keys after them, in
 * their order); array elements are matched by `id` where both have one, else by position. Only order changes.
 */
export function orderLike(value: unknown, like: unknown): unknown {
  if (Array.isArray(value)) {
    if (!Array.isArray(like)) return value;
    const byId = new Map(like.flatMap((item) => (idOf(item) === undefined ? [] : [[idOf(item), item] as const])));
    return value.map((item, i) => orderLike(item, byId.get(idOf(item)) ?? like[i]));
  }
  if (!isRecord(value) || !isRecord(like)) return value;
  const keys = [...Object.keys(like).filter((k) => Object.hasOwn(value, k)), ...Object.keys(value).filter((k) => !Object.hasOwn(like, k))];
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    // defineProperty keeps a "__proto__" member an ordinary member, as the readers do.
    Object.defineProperty(out, key, { value: orderLike(value[key], like[key]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** JSON with 2-space indents; kept numbers as written (writeJson). */
export function writeIndentedJson(value: unknown): string {
  return `${indentedJson(value, '')}\n`;
}

function indentedJson(value: unknown, indent: string): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + indentedJson(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return '{}';
    return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${indentedJson(value[k], inner)}`).join(',\n')}\n${indent}}`;
  }
  return writeJson(value);
}

/** YAML in block style with 2-space indents, no comments, each number as written. */
export function writeBlockYaml(value: unknown): string {
  return `${(isNonEmptyCollection(value) ? yamlBlock(value) : [yamlScalar(value)]).join('\n')}\n`;
}

function isNonEmptyCollection(value: unknown): value is unknown[] | Record<string, unknown> {
  return Array.isArray(value) ? value.length > 0 : isRecord(value) && Object.keys(value).length > 0;
}

/** The lines of a non-empty collection at indent 0; a parent indents them. */
function yamlBlock(value: unknown[] | Record<string, unknown>): string[] {
  const lines: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (!isNonEmptyCollection(item)) {
        lines.push(`- ${yamlScalar(item)}`);
        continue;
      }
      const [first, ...rest] = yamlBlock(item);
      lines.push(`- ${first}`, ...rest.map((line) => `  ${line}`));
    }
    return lines;
  }
  for (const [key, item] of Object.entries(value)) {
    if (isNonEmptyCollection(item)) lines.push(`${yamlString(key)}:`, ...yamlBlock(item).map((line) => `  ${line}`));
    else lines.push(`${yamlString(key)}: ${yamlScalar(item)}`);
  }
  return lines;
}

function yamlScalar(value: unknown): string {
  if (value instanceof DecimalNumber) return value.text;
  if (Array.isArray(value)) return '[]';
  if (isRecord(value)) return '{}';
  if (typeof value === 'string') return yamlString(value);
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return String(value);
  // The YAML reader gives nothing else; fail loudly rather than write a value that reads back differently.
  throw new TypeError(`no canonical YAML for a ${typeof value}`);
}

/** A string as YAML writes it: plain where that reads back as the same string, else quoted on one line. */
function yamlString(value: string): string {
  return stringify(value, { lineWidth: 0, blockQuote: false }).replace(/\n$/, '');
}
