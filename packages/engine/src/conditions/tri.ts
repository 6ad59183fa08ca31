// Three-valued logic for conditions: a value that cannot be read is neither true nor false.

export const FALSE = 0;
export const TRUE = 1;
/** The value is missing, has another type, is not a well-formed decimal, or a `*` selected nothing. */
export const UNKNOWN = 2;
export type Tri = typeof FALSE | typeof TRUE | typeof UNKNOWN;

export function triName(t: Tri): 'true' | 'false' | 'unknown' {
  return t === TRUE ? 'true' : t === FALSE ? 'false' : 'unknown';
}
