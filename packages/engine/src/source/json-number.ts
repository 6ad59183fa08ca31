// A JSON number kept as written. The exact reader gives a JavaScript number only for a canonical safe
// integer (`12`, `-3`), whose digits the number states exactly; any other lexeme (`12.0`, `1E2`, `-0`,
// `0.1`, `500.00000000000001`, `9007199254740993`) stays text, so no comparison ever sees a rounded double
// (docs/policy.md, "Numbers in arguments").
import Decimal from 'decimal.js';

/**
 * A JSON number whose lexeme a JavaScript number cannot state: the text as written.
 *
 * @example
 * const n = new JsonNumber('12.0');
 * n.lexeme; // '12.0'
 */
export class JsonNumber {
  readonly lexeme: string;
  constructor(lexeme: string) {
    this.lexeme = lexeme;
    Object.freeze(this);
  }
  /**
   * Serialising through JSON.stringify would state another number (or an object): refuse, so a path that
   * forgot `writeJson` fails loudly instead of recording or showing a rounded value.
   */
  toJSON(): never {
    throw new TypeError(`the JSON number ${this.lexeme} must be written with writeJson, which keeps its lexeme`);
  }
}

export function isJsonNumber(value: unknown): value is JsonNumber {
  return value instanceof JsonNumber;
}

/** Longest plain decimal a lexeme may expand to; `1e1000000` is indeterminate, never a megabyte of zeros. */
const MAX_PLAIN_DIGITS = 64;

/**
 * The two readings of a kept number as plain decimal strings (`-`, digits, optional fraction): as written,
 * and as a reader that parses JSON numbers into doubles sees it. Undefined when either reading cannot be
 * stated in a bounded plain decimal (a huge exponent, an overflow to infinity).
 *
 * @example
 * numberReadings(new JsonNumber('500.00000000000001')); // { written: '500.00000000000001', double: '500' }
 */
export function numberReadings(n: JsonNumber): { written: string; double: string } | undefined {
  // An exponent of more than four digits over- or underflows decimal.js's own range: no exact reading.
  const exponent = /[eE][+-]?0*(\d*)$/.exec(n.lexeme);
  if (exponent !== null && (exponent[1] as string).length > 4) return undefined;
  const written = plainDecimal(new Decimal(n.lexeme));
  if (written === undefined) return undefined;
  const asDouble = Number(n.lexeme);
  if (!Number.isFinite(asDouble)) return undefined;
  const double = plainDecimal(new Decimal(String(asDouble)));
  return double === undefined ? undefined : { written, double };
}

function plainDecimal(d: Decimal): string | undefined {
  // decimal.js's exponent is the position of the first significant digit; bound the expansion before it.
  if (!d.isFinite()) return undefined;
  if (!d.isZero() && (d.e > MAX_PLAIN_DIGITS || d.e < -MAX_PLAIN_DIGITS || d.sd() > MAX_PLAIN_DIGITS)) return undefined;
  return d.isZero() ? '0' : d.toFixed();
}

/**
 * The JSON Pointers of every kept number in a value (none for a value without one), for the readers of
 * documents that accept exact integers only.
 */
export function keptNumberPaths(value: unknown, pointer = '', out: string[] = []): string[] {
  if (value instanceof JsonNumber) out.push(pointer);
  else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) keptNumberPaths(value[i], `${pointer}/${i}`, out);
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      keptNumberPaths((value as Record<string, unknown>)[key], `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
  return out;
}

/**
 * The value with every kept number read as a double, as a validator of shapes sees it: the number is
 * refused as INEXACT_NUMBER by its reader, and the shape around it is still checked as before. The value
 * itself when it holds none.
 */
export function withDoubles(value: unknown): unknown {
  if (value instanceof JsonNumber) return Number(value.lexeme);
  if (Array.isArray(value)) {
    const mapped = value.map(withDoubles);
    return mapped.some((item, i) => item !== value[i]) ? mapped : value;
  }
  if (value !== null && typeof value === 'object') {
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const member = (value as Record<string, unknown>)[key];
      const mapped = withDoubles(member);
      if (mapped !== member) {
        copy ??= { ...(value as Record<string, unknown>) };
        Object.defineProperty(copy, key, { value: mapped, enumerable: true, writable: true, configurable: true });
      }
    }
    return copy ?? value;
  }
  return value;
}
