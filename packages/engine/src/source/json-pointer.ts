// RFC 6901 JSON Pointers: parsing into reference tokens and formatting back.

/**
 * Splits a pointer into unescaped reference tokens, or returns undefined when it is not a pointer.
 *
 * @example
 * parsePointer('/a~1b/0') // ['a/b', '0']
 * parsePointer('') // [] (the whole document)
 */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (pointer.charCodeAt(0) !== 47 /* / */) return undefined;
  const raw = pointer.slice(1).split('/');
  const tokens: string[] = new Array(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const token = unescapeToken(raw[i] as string);
    if (token === undefined) return undefined;
    tokens[i] = token;
  }
  return tokens;
}

function unescapeToken(raw: string): string | undefined {
  if (raw.indexOf('~') === -1) return raw;
  let out = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== '~') {
      out += c;
      continue;
    }
    const next = raw[i + 1];
    if (next === '0') out += '~';
    else if (next === '1') out += '/';
    else return undefined;
    i++;
  }
  return out;
}

/** Escapes one token: `~` as `~0`, `/` as `~1`. */
export function escapeToken(token: string | number): string {
  const s = String(token);
  if (s.indexOf('~') === -1 && s.indexOf('/') === -1) return s;
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a pointer from tokens. */
export function formatPointer(tokens: readonly (string | number)[]): string {
  let out = '';
  for (const t of tokens) out += `/${escapeToken(t)}`;
  return out;
}

/** Appends tokens to a pointer: `childPointer('/rules', 3, 'when')` is `/rules/3/when`. */
export function childPointer(base: string, ...tokens: (string | number)[]): string {
  return base + formatPointer(tokens);
}

/** An array index token: decimal, no leading zeros (RFC 6901 section 4). */
export function arrayIndex(token: string): number {
  const n = token.length;
  if (n === 0 || n > 15) return -1;
  const first = token.charCodeAt(0);
  if (first === 48 /* 0 */) return n === 1 ? 0 : -1;
  let value = 0;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

const MISSING: unique symbol = Symbol('missing');
/** Returned by {@link resolvePointer} when nothing is at the pointer. */
export type Missing = typeof MISSING;
export { MISSING };

/** Resolves tokens against a JSON value; `MISSING` when a member or index is absent. */
export function resolvePointer(root: unknown, tokens: readonly string[]): unknown | Missing {
  let current: unknown = root;
  for (let i = 0; i < tokens.length; i++) {
    current = step(current, tokens[i] as string);
    if (current === MISSING) return MISSING;
  }
  return current;
}

/** One pointer step: an index into an array, a member of an object, else missing. */
export function step(value: unknown, token: string): unknown | Missing {
  if (Array.isArray(value)) {
    const index = arrayIndex(token);
    return index >= 0 && index < value.length ? value[index] : MISSING;
  }
  if (value !== null && typeof value === 'object') {
    return Object.hasOwn(value, token) ? (value as Record<string, unknown>)[token] : MISSING;
  }
  return MISSING;
}
