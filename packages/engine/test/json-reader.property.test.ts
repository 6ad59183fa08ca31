// The exact JSON reader against JSON.parse on generated texts: both accept and refuse the same texts
// (within the depth limit), read the same values once kept numbers are read as doubles, and every kept
// number is exactly a lexeme that is not a canonical safe integer. Mutated texts never throw or hang.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonNumber, readJsonText, withDoubles } from '../src/source/index.ts';

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Every kept number in a value. */
function keptNumbers(value: unknown, out: JsonNumber[] = []): JsonNumber[] {
  if (value instanceof JsonNumber) out.push(value);
  else if (Array.isArray(value)) for (const v of value) keptNumbers(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) keptNumbers(v, out);
  return out;
}

const numberLexeme = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.constantFrom('12.0', '1E2', '-0', '1e3', '0.1', '9007199254740993', '100.0000000000000001', '5e-324', '1e400', '-0.0e-0'),
);
/** JSON texts with every spelling of numbers, spaces and escapes. */
const jsonText = fc.oneof(
  fc.json({ maxDepth: 6 }),
  fc
    .tuple(fc.array(numberLexeme, { maxLength: 6 }), fc.constantFrom(' ', '\n', '\t', ''))
    .map(([ns, sp]) => `[${sp}${ns.join(`,${sp}`)}${sp}]`),
  fc.tuple(fc.string(), numberLexeme).map(([k, n]) => `{${JSON.stringify(k)}:${n},"\\u0061":"\\ud83d\\ude00\\n"}`),
);
/** A text with one character inserted, deleted or replaced: mostly not JSON any more. */
const mutated = fc
  .tuple(
    jsonText,
    fc.nat(),
    fc.constantFrom('', '{', '}', '[', ']', ',', ':', '"', '\\', '-', '.', 'e', '0', '1', ' ', 'x', '\u0000', '\uFEFF'),
    fc.boolean(),
  )
  .map(([text, at, ch, replace]) => {
    const i = text.length === 0 ? 0 : at % text.length;
    return text.slice(0, i) + ch + text.slice(replace ? i + 1 : i);
  });

describe('readJsonText against JSON.parse', () => {
  it('accepts what JSON.parse accepts and reads the same value, numbers kept as written', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const read = readJsonText(text);
        expect(read.ok).toBe(parses(text));
        if (!read.ok) return;
        // JSON.parse keeps the last of a repeated member, the reader the first (and reports it).
        if (read.diagnostics.some((d) => d.code === 'DUPLICATE_MEMBER')) return;
        expect(withDoubles(read.value)).toEqual(JSON.parse(text));
        for (const n of keptNumbers(read.value)) {
          expect(text).toContain(n.lexeme);
          expect(/^-?(0|[1-9][0-9]*)$/.test(n.lexeme) && n.lexeme !== '-0' && Number.isSafeInteger(Number(n.lexeme))).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses what JSON.parse refuses, with a position, and never throws on a mutated text', () => {
    fc.assert(
      fc.property(mutated, (text) => {
        const read = readJsonText(text);
        expect(read.ok).toBe(parses(text));
        if (!read.ok) expect(read.diagnostic.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads a bare number at the very end of the text', () => {
    for (const t of ['12', '-3', '1.5', '1e5', '0']) expect(readJsonText(t).ok).toBe(true);
  });
});
