// Small readers the rule set, agent and settings validators share: mappings, members, text, lists,
// document references and ISO 8601 date-times, each pushing its problem with a path.
import { problem } from '../conditions/family.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { childPointer } from '../source/json-pointer.ts';
import { DecimalNumber } from '../source/yaml-text.ts';
import { type DocumentKind, documentKindOf } from './kinds.ts';

/** What a validator may ask of the store, when one is at hand. */
export interface ReferenceContext {
  /** Whether a document (or one stored version of it, by sequence) exists. */
  exists?(id: string, sequence?: number): boolean;
}

/**
 * A mapping of plain values (YAML or JSON), never a list, null or a YAML decimal.
 *
 * @example
 * isRecord({ a: 1 }) // true
 * isRecord([1]) // false
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof DecimalNumber);
}

/**
 * Pushes UNKNOWN_MEMBER for each member not in `known`.
 *
 * @example
 * checkMembers({ nme: 'x' }, '/pins/0', ['document', 'sequence'], problems) // UNKNOWN_MEMBER at /pins/0/nme
 */
export function checkMembers(value: Record<string, unknown>, path: string, known: readonly string[], problems: Diagnostic[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      problems.push(problem('UNKNOWN_MEMBER', childPointer(path, key), `unknown member "${key}"; expected one of ${known.join(', ')}`));
    }
  }
}

/**
 * Reads optional text of 1 to `max` characters that is not blank.
 *
 * @example
 * readText('Support', '/name', 100, problems) // 'Support'
 */
export function readText(value: unknown, path: string, max: number, problems: Diagnostic[]): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') {
    problems.push(problem('INVALID_TYPE', path, 'expected text'));
    return undefined;
  }
  if (value.trim() === '' || value.length > max) {
    problems.push(problem('INVALID_VALUE', path, `expected text of 1 to ${max} characters`));
    return undefined;
  }
  return value;
}

/**
 * Reads one of a fixed set of strings.
 *
 * @example
 * readChoice('rule', '/disclosure', ['none', 'rule', 'conditions'], problems) // 'rule'
 */
export function readChoice<T extends string>(value: unknown, path: string, choices: readonly T[], problems: Diagnostic[]): T | undefined {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  problems.push(problem('INVALID_VALUE', path, `expected one of ${choices.join(', ')}`));
  return undefined;
}

/**
 * Reads a list, checking its type and length and calling `item` per entry; `item` returns a key to find
 * duplicates by (DUPLICATE_VALUE), or undefined for an entry it refused.
 *
 * @example
 * readList(['a', 'a'], '/tags', 32, problems, (t) => ({ key: String(t), value: t })) // ['a']; DUPLICATE_VALUE at /tags/1
 */
export function readList<T>(
  value: unknown,
  path: string,
  max: number,
  problems: Diagnostic[],
  item: (entry: unknown, at: string) => { key: string; value: T } | undefined,
): T[] | undefined {
  if (!Array.isArray(value)) {
    problems.push(problem('INVALID_TYPE', path, 'expected a list'));
    return undefined;
  }
  if (value.length > max) problems.push(problem('LIST_TOO_LONG', path, `at most ${max} items`));
  const out: T[] = [];
  const seen = new Set<string>();
  value.forEach((entry, i) => {
    const at = childPointer(path, i);
    const read = item(entry, at);
    if (read === undefined) return;
    if (seen.has(read.key)) {
      problems.push(problem('DUPLICATE_VALUE', at, `${read.key} is listed twice; list it once`));
      return;
    }
    seen.add(read.key);
    out.push(read.value);
  });
  return out;
}

/**
 * Reads a document id that must name one of `kinds`; with a store to ask, it must exist.
 *
 * @example
 * readReference('catalogue.yaml', '/catalogue', ['catalogue'], problems) // 'catalogue.yaml'
 */
export function readReference(
  value: unknown,
  path: string,
  kinds: readonly DocumentKind[],
  problems: Diagnostic[],
  context?: ReferenceContext,
): string | undefined {
  if (typeof value !== 'string') {
    problems.push(problem('INVALID_TYPE', path, `expected a document id such as ${EXAMPLE_IDS[kinds[0] ?? 'policy']}`));
    return undefined;
  }
  const kind = documentKindOf(value);
  if (kind === undefined || !kinds.includes(kind)) {
    const what = kinds.map((k) => `${kindWords(k)} (${EXAMPLE_IDS[k]})`).join(' or ');
    problems.push(problem('WRONG_DOCUMENT_KIND', path, `${value} is ${kind ? kindWords(kind) : 'no document id'}; name ${what}`));
    return undefined;
  }
  if (context?.exists && !context.exists(value)) {
    problems.push(problem('REFERENCE_NOT_FOUND', path, `${value} is not in the store`));
  }
  return value;
}

const KIND_WORDS: Record<DocumentKind, string> = {
  catalogue: 'a catalogue',
  sheet: 'a rule sheet',
  colang: 'a Colang policy',
  policy: 'a policy document',
  examples: "a policy's example suite",
  ruleset: 'a rule set',
  agent: 'an agent',
  settings: 'the settings file',
  upstreams: 'the upstreams document',
};

/**
 * A kind in words, with its article.
 *
 * @example
 * kindWords('agent') // 'an agent'
 */
export function kindWords(kind: DocumentKind): string {
  return KIND_WORDS[kind];
}

const EXAMPLE_IDS: Record<DocumentKind, string> = {
  catalogue: 'catalogue.yaml',
  sheet: 'sheets/shop.rules.yaml',
  colang: 'colang/shop.co',
  policy: 'policies/refunds.policy.json',
  examples: 'policies/refunds.examples.json',
  ruleset: 'rulesets/support.ruleset.json',
  agent: 'agents/support.agent.yaml',
  settings: 'settings.yaml',
  upstreams: 'mcp/servers.yaml',
};

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?(Z|[+-](\d{2}):(\d{2}))$/;

/**
 * Reads an ISO 8601 date-time with seconds and an offset into milliseconds since 1970, or undefined
 * when it is not one (a calendar date that does not exist included). At most three fraction digits, so
 * every accepted time compares exactly.
 *
 * @example
 * parseDateTime('2025-07-01T09:00:00+02:00') // 1751353200000
 * parseDateTime('2025-02-30T00:00:00Z') // undefined
 */
export function parseDateTime(text: string): number | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const millis = Number((m[7] ?? '').padEnd(3, '0'));
  const offsetHours = m[9] === undefined ? 0 : Number(m[9]);
  const offsetMinutes = m[10] === undefined ? 0 : Number(m[10]);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  // setUTCFullYear, not Date.UTC, which reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  const sign = m[8]?.startsWith('-') ? -1 : 1;
  return date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000;
}

/**
 * Reads a date-time member (see {@link parseDateTime}); pushes INVALID_DATE_TIME.
 *
 * @example
 * readDateTime('2025-07-01', '/delegation/valid_until', problems) // undefined; INVALID_DATE_TIME
 */
export function readDateTime(value: unknown, path: string, problems: Diagnostic[]): number | undefined {
  const at = typeof value === 'string' ? parseDateTime(value) : undefined;
  if (at === undefined) {
    problems.push(
      problem('INVALID_DATE_TIME', path, 'expected an ISO 8601 date-time with seconds and an offset, such as 2025-07-01T09:00:00Z'),
    );
  }
  return at;
}
