// The gate's one-pass body reader (call-body-reader.ts) against the engine's exact reader, its oracle: on generated
// call bodies (duplicates, odd numbers, escapes with surrogates and \u0000, whitespace) and on their truncations and
// byte mutations, the gate's reading (the fast reader, or the exact reader where it says "not mine") gives the exact
// reader's answer: the same value, or the same refusal (code and position). Where the fast reader gives the
// arguments' text, it is both their canonical JSON (the digest's input) and writeJson's text (the row's).
import { canonicalJson } from '@tollgate/engine';
import { JsonNumber, readJsonText, writeJson } from '@tollgate/engine/source';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FAST_DEPTH, readCallBody } from '../src/server/call-body-reader.ts';
import { MAX_BODY_DEPTH } from '../src/server/json-depth.ts';

const LIMITS = { maxLength: 4096, maxDepth: MAX_BODY_DEPTH };

/** What a reading answers, comparable with toEqual: a value (JsonNumbers as their lexemes) or a refusal. */
function answerOf(text: string, limits = LIMITS): unknown {
  const fast = readCallBody(text, limits);
  if (fast !== undefined) return { value: plain(fast.value), duplicates: [] };
  return genericAnswer(text, limits);
}

function genericAnswer(text: string, limits = LIMITS): unknown {
  const r = readJsonText(text, limits);
  if (!r.ok) return { refused: { code: r.diagnostic.code, line: r.diagnostic.line, column: r.diagnostic.column, path: r.diagnostic.path } };
  return { value: plain(r.value), duplicates: r.diagnostics.filter((d) => d.code === 'DUPLICATE_MEMBER').map((d) => d.path) };
}

/** The value with each JsonNumber marked by its lexeme and each object's member order kept, for toEqual. */
function plain(value: unknown): unknown {
  if (value instanceof JsonNumber) return { lexeme: value.lexeme };
  if (Array.isArray(value)) return { array: value.map(plain) };
  if (value !== null && typeof value === 'object') {
    return {
      object: Object.keys(value).map((k) => [k, plain((value as Record<string, unknown>)[k])]),
      proto: Object.getPrototypeOf(value) === Object.prototype,
    };
  }
  return value;
}

const keyChars = fc.constantFrom('a', 'b', 'z', 'A', '0', '9', '_', '-', ' ', 'é', '\u2028', '\ud83d\ude00', '"', '\\', '\n', '\u0000');
const key = fc.oneof(
  fc.constantFrom(
    'tool',
    'arguments',
    'session',
    'contexts',
    'confirmed',
    'amount',
    'currency',
    '__proto__',
    'constructor',
    '1',
    '10',
    '9',
  ),
  fc.string({ unit: keyChars, maxLength: 6 }),
);

/** A number as an agent might write it: canonical integers, -0, exponents, long digits, fractions. */
const numberText = fc.oneof(
  fc.integer().map(String),
  fc.constantFrom(
    '0',
    '-0',
    '1e400',
    '0.1e-7',
    '1E2',
    '12.0',
    '9007199254740991',
    '9007199254740992',
    '-9007199254740993',
    '1234567890123456',
    '12345678901234567',
    '0.1',
    '-1.5e+3',
  ),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 9999 })).map(([a, b]) => `${a}.${b}`),
);

/** A string literal, written plainly or with escapes (surrogates, \u0000, lone halves, every short escape). */
const stringText = fc.oneof(
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.constantFrom(
    '"\\ud83d\\ude00"',
    '"\\u0000"',
    '"\\ud800"',
    '"\\uDC00x"',
    '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    '"é"',
    '"\ud83d\ude00"',
    '"50"',
    '"\\u00e9"',
  ),
  fc.string({ unit: keyChars, maxLength: 6 }).map((s) => JSON.stringify(s)),
);

const space = fc.constantFrom('', '', '', ' ', '\n', '\t', '\r\n  ');

const { value: valueText } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    stringText,
    numberText,
    fc.constantFrom('true', 'false', 'null'),
    tie('object'),
    tie('array'),
  ),
  object: fc
    .array(fc.tuple(space, stringTextOfKey(), space, space, tie('value'), space), { maxLength: 4 })
    .map((members) => `{${members.map(([a, k, b, c, v, d]) => `${a}${k}${b}:${c}${v}${d}`).join(',')}}`),
  array: fc
    .array(fc.tuple(space, tie('value'), space), { maxLength: 4 })
    .map((items) => `[${items.map(([a, v, b]) => `${a}${v}${b}`).join(',')}]`),
})) as { value: fc.Arbitrary<string> };

function stringTextOfKey(): fc.Arbitrary<string> {
  return fc.oneof(
    key.map((k) => JSON.stringify(k)),
    fc.constantFrom('"\\u0061"', '"a\\nb"'),
  );
}

/** A call body: the gate's members (sometimes repeated, sometimes joined by others) with generated values. */
const body = fc
  .array(
    fc.tuple(
      space,
      fc.oneof(fc.constantFrom('tool', 'arguments', 'session', 'contexts', 'confirmed'), key).map((k) => JSON.stringify(k)),
      space,
      valueText,
    ),
    { maxLength: 6 },
  )
  .chain((members) =>
    fc.tuple(fc.constant(members), space, fc.boolean()).map(([ms, end, sortedArgs]) => {
      const parts = ms.map(([a, k, b, v]) => `${a}${k}${b}:${v}`);
      if (sortedArgs) parts.push('"arguments":{"amount":"50","currency":"USD"}');
      return `{${parts.join(',')}}${end}`;
    }),
  );

/** A body broken or bent: cut short, a character replaced, inserted or removed. */
const mutated = fc
  .tuple(
    body,
    fc.nat(),
    fc.constantFrom('cut', 'replace', 'insert', 'remove'),
    fc.constantFrom('"', '{', '}', '[', ']', ',', ':', '\\', '0', '-', '.', 'e', ' ', '\u0000', '\ud800', 'x', '1'),
  )
  .map(([text, n, how, c]) => {
    const i = text.length === 0 ? 0 : n % text.length;
    if (how === 'cut') return text.slice(0, i);
    if (how === 'replace') return text.slice(0, i) + c + text.slice(i + 1);
    if (how === 'insert') return text.slice(0, i) + c + text.slice(i);
    return text.slice(0, i) + text.slice(i + 1);
  });

describe('the gate reads a call body as the exact reader does', () => {
  it('answers the same value or the same refusal on generated bodies', () => {
    let readHere = 0;
    fc.assert(
      fc.property(body, (text) => {
        if (readCallBody(text, LIMITS) !== undefined) readHere++;
        expect(answerOf(text)).toEqual(genericAnswer(text));
      }),
      { numRuns: 1500 },
    );
    // The property is about the fast reader only where it reads: most generated bodies must be its own.
    expect(readHere).toBeGreaterThan(500);
  });

  it('answers the same on truncated and mutated bodies', () => {
    fc.assert(
      fc.property(mutated, (text) => {
        expect(answerOf(text)).toEqual(genericAnswer(text));
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the arguments text only when it is their canonical JSON and writeJson text', () => {
    fc.assert(
      fc.property(fc.oneof(body, mutated), (text) => {
        const fast = readCallBody(text, LIMITS);
        if (fast?.argumentsText === undefined) return;
        const args = (fast.value as { arguments: unknown }).arguments;
        expect(fast.argumentsText).toBe(canonicalJson(args));
        expect(fast.argumentsText).toBe(writeJson(args));
      }),
      { numRuns: 1500 },
    );
  });

  it('reads the common bodies itself, with their canonical arguments', () => {
    const plainCall = readCallBody('{"tool":"issue_refund","arguments":{"amount":"50"}}', LIMITS);
    expect(plainCall).toEqual({ value: { tool: 'issue_refund', arguments: { amount: '50' } }, argumentsText: '{"amount":"50"}' });
    const spaced = readCallBody('{"tool": "issue_refund", "arguments": {"amount": 50, "note": "a\\"b"}, "session": "s-1"}', LIMITS);
    expect(spaced?.value).toEqual({ tool: 'issue_refund', arguments: { amount: 50, note: 'a"b' }, session: 's-1' });
    expect(spaced?.argumentsText).toBeUndefined();
    const unsorted = readCallBody('{"arguments":{"b":1,"a":2},"tool":"t"}', LIMITS);
    expect(unsorted?.value).toEqual({ arguments: { b: 1, a: 2 }, tool: 't' });
    expect(unsorted?.argumentsText).toBeUndefined();
    const kept = readCallBody('{"arguments":{"amount":12.50,"big":1e400,"n":-0}}', LIMITS);
    if (kept === undefined) throw new Error('the fast reader reads kept numbers');
    const args = (kept.value as { arguments: Record<string, JsonNumber> }).arguments;
    expect([args.amount?.lexeme, args.big?.lexeme, args.n?.lexeme]).toEqual(['12.50', '1e400', '-0']);
    expect(kept.argumentsText).toBe('{"amount":12.50,"big":1e400,"n":-0}');
  });

  it('leaves to the exact reader what it must refuse or place: duplicates, __proto__, depth, size, syntax', () => {
    const limits = LIMITS;
    for (const text of [
      '{"tool":"a","tool":"b"}',
      '{"arguments":{"x":1,"x":2}}',
      '{"__proto__":{}}',
      '{"arguments":{"__proto__":1}}',
      `{"arguments":${'['.repeat(FAST_DEPTH)}${']'.repeat(FAST_DEPTH)}}`,
      '{"tool":"a",}',
      '{"tool":"a"} x',
      '[1]',
      '"s"',
      '\ufeff{}',
      '{"tool":"\u0001"}',
      '{"n":01}',
      '{"n":1.}',
      '{"s":"\\x"}',
      '{"s":"\\u12"}',
    ]) {
      expect(readCallBody(text, limits), text).toBeUndefined();
    }
    expect(readCallBody('{"tool":"a"}', { maxLength: 5, maxDepth: 72 })).toBeUndefined();
    expect(readCallBody('{"a":[[]]}', { maxLength: 100, maxDepth: 2 })).toBeUndefined();
    expect(answerOf('{"a":[[]]}', { maxLength: 100, maxDepth: 2 })).toEqual(genericAnswer('{"a":[[]]}', { maxLength: 100, maxDepth: 2 }));
  });
});
