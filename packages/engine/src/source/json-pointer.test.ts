// RFC 6901 pointers: parsing, escaping, array indexes and resolution against JSON values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrayIndex, childPointer, escapeToken, formatPointer, MISSING, parsePointer, resolvePointer, step } from './json-pointer.ts';

/** Tokens drawn mostly from the characters that need escaping, so escapes collide often. */
const token = fc.string({ unit: fc.constantFrom('~', '/', '0', '1', 'a', '*', ' ', 'é'), maxLength: 8 });

describe('parsePointer', () => {
  it.each([
    ['', []],
    ['/', ['']],
    ['//', ['', '']],
    ['/a', ['a']],
    ['/a/0', ['a', '0']],
    ['/a~1b/0', ['a/b', '0']],
    ['/m~0n', ['m~n']],
    ['/~0~1', ['~/']],
    ['/ ', [' ']],
    ['/*', ['*']],
  ])('parses %j into %j', (pointer, tokens) => {
    expect(parsePointer(pointer)).toEqual(tokens);
  });

  it('decodes ~1 before ~0 would be wrong: "~01" is the literal "~1"', () => {
    expect(parsePointer('/~01')).toEqual(['~1']);
    expect(parsePointer('/~10')).toEqual(['/0']);
    expect(parsePointer('/~0~1')).toEqual(['~/']);
    expect(parsePointer('/~00')).toEqual(['~0']);
  });

  it.each(['a', 'a/b', ' /a', '#/a', '/~2', '/a~', '/~', '/a~b', '/~~', '/ok/~3x', '/~-1'])('refuses %j', (pointer) => {
    expect(parsePointer(pointer)).toBeUndefined();
  });
});

describe('escapeToken and formatPointer', () => {
  it.each([
    ['a', 'a'],
    ['a/b', 'a~1b'],
    ['m~n', 'm~0n'],
    ['~1', '~01'],
    ['/~', '~1~0'],
    ['', ''],
  ])('escapes %j as %j', (raw, escaped) => {
    expect(escapeToken(raw)).toBe(escaped);
  });

  it('escapes numbers as their digits', () => {
    expect(escapeToken(3)).toBe('3');
    expect(formatPointer(['rules', 3, 'when', 0])).toBe('/rules/3/when/0');
  });

  it('formats the empty token list as the whole document', () => {
    expect(formatPointer([])).toBe('');
  });

  it('childPointer appends escaped tokens', () => {
    expect(childPointer('/rules', 3, 'when')).toBe('/rules/3/when');
    expect(childPointer('', 'a/b', '~')).toBe('/a~1b/~0');
    expect(childPointer('/x')).toBe('/x');
  });

  it('round-trips generated token lists: parse(format(tokens)) is tokens and format(parse(p)) is p', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 6 }), (tokens) => {
        const pointer = formatPointer(tokens);
        const parsed = parsePointer(pointer);
        expect(parsed).toEqual(tokens);
        expect(formatPointer(parsed ?? [])).toBe(pointer);
      }),
      { numRuns: 1000 },
    );
  });

  it('formats back every string parsePointer accepts, exactly', () => {
    const pointerLike = fc.string({ unit: fc.constantFrom('~', '/', '0', '1', '2', 'a'), maxLength: 12 });
    fc.assert(
      fc.property(pointerLike, (p) => {
        const tokens = parsePointer(p);
        if (tokens !== undefined) expect(formatPointer(tokens)).toBe(p);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('arrayIndex', () => {
  it.each([
    ['0', 0],
    ['1', 1],
    ['10', 10],
    ['999999999999999', 999999999999999],
  ])('reads %j as %d', (raw, index) => {
    expect(arrayIndex(raw)).toBe(index);
  });

  it.each(['', '-', '-1', '01', '00', '1a', 'a', ' 1', '1 ', '+1', '1.0', '1e2', '０', '１', '9999999999999999'])(
    'refuses %j (-1)',
    (raw) => {
      expect(arrayIndex(raw)).toBe(-1);
    },
  );
});

describe('step', () => {
  const list = ['a', 'b', null];

  it('indexes arrays by canonical decimal tokens', () => {
    expect(step(list, '0')).toBe('a');
    expect(step(list, '1')).toBe('b');
    expect(step(list, '2')).toBeNull();
  });

  it.each(['3', '-', '01', '-1', 'length', '', '1.0', 'map'])('is MISSING on an array for %j', (t) => {
    expect(step(list, t)).toBe(MISSING);
  });

  it('reads own members of objects, including null values and numeric-looking names', () => {
    const obj = { a: 1, n: null, '0': 'zero', 'a/b': 'slash', '*': 'star' };
    expect(step(obj, 'a')).toBe(1);
    expect(step(obj, 'n')).toBeNull();
    expect(step(obj, '0')).toBe('zero');
    expect(step(obj, 'a/b')).toBe('slash');
    expect(step(obj, '*')).toBe('star');
    expect(step(obj, 'b')).toBe(MISSING);
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('treats inherited %j on {} as MISSING', (name) => {
    expect(step({}, name)).toBe(MISSING);
  });

  it('reads an own "__proto__" member and objects without a prototype', () => {
    const own = JSON.parse('{"__proto__": 7}') as unknown;
    expect(step(own, '__proto__')).toBe(7);
    const bare = Object.create(null) as Record<string, unknown>;
    bare.k = 'v';
    expect(step(bare, 'k')).toBe('v');
    expect(step(bare, 'toString')).toBe(MISSING);
  });

  it.each([
    ['a string', 'abc', '0'],
    ['a string length', 'abc', 'length'],
    ['a number', 5, 'x'],
    ['a boolean', true, 'valueOf'],
    ['null', null, 'a'],
    ['undefined', undefined, 'a'],
  ])('is MISSING on %s', (_name, value, t) => {
    expect(step(value, t)).toBe(MISSING);
  });
});

describe('resolvePointer', () => {
  const doc = { a: { b: [1, { c: 2 }] }, 'x/y': { '~': 'tilde' }, e: [] as unknown[] };

  it('returns the root for no tokens', () => {
    expect(resolvePointer(doc, [])).toBe(doc);
    expect(resolvePointer(5, [])).toBe(5);
  });

  it('walks objects and arrays', () => {
    expect(resolvePointer(doc, ['a', 'b', '1', 'c'])).toBe(2);
    expect(resolvePointer(doc, ['a', 'b', '0'])).toBe(1);
    expect(resolvePointer(doc, parsePointer('/x~1y/~0') ?? [])).toBe('tilde');
  });

  it('is MISSING as soon as a step is missing, and when stepping into a primitive', () => {
    expect(resolvePointer(doc, ['a', 'z', 'c'])).toBe(MISSING);
    expect(resolvePointer(doc, ['a', 'b', '2'])).toBe(MISSING);
    expect(resolvePointer(doc, ['a', 'b', '0', 'c'])).toBe(MISSING);
    expect(resolvePointer(doc, ['e', '0'])).toBe(MISSING);
    expect(resolvePointer(doc, ['a', 'constructor'])).toBe(MISSING);
    expect(resolvePointer(null, ['a'])).toBe(MISSING);
  });
});
