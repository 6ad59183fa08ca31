// Exact JSON reading: fatal input codes with positions, duplicate members, inexact numbers, ranges,
// and the diagnostic helpers they use (formatDiagnostic, positionAt).
import { describe, expect, it } from 'vitest';
import { type Diagnostic, formatDiagnostic, positionAt } from './diagnostic.ts';
import { MISSING, parsePointer, resolvePointer } from './json-pointer.ts';
import { DEFAULT_JSON_LIMITS, type JsonTextResult, readJsonText } from './json-text.ts';

function ok(result: JsonTextResult) {
  if (!result.ok) throw new Error(`expected JSON, got ${result.diagnostic.code}: ${result.diagnostic.message}`);
  return result;
}

function fatal(result: JsonTextResult): Diagnostic {
  if (result.ok) throw new Error('expected a fatal diagnostic');
  return result.diagnostic;
}

function nested(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels);
}

describe('readJsonText: valid text', () => {
  it('reads objects, arrays and scalars with no diagnostics', () => {
    const r = ok(readJsonText('{"a": [1, "two", true, null, {"b": -5}], "c": {}}'));
    expect(r.value).toEqual({ a: [1, 'two', true, null, { b: -5 }], c: {} });
    expect(r.diagnostics).toEqual([]);
  });

  it('reads bare scalars and surrounding whitespace', () => {
    expect(ok(readJsonText('  "x"\n')).value).toBe('x');
    expect(ok(readJsonText('null')).value).toBeNull();
    expect(ok(readJsonText('0')).value).toBe(0);
  });

  it('keeps brackets inside strings out of the depth count', () => {
    const text = JSON.stringify({ a: `${'['.repeat(100)}"\\${'{'.repeat(100)}` });
    const r = ok(readJsonText(text));
    expect(r.diagnostics).toEqual([]);
    expect((r.value as { a: string }).a).toHaveLength(202);
  });
});

describe('readJsonText: NOT_JSON', () => {
  it('reports the line and column of an error on line 3', () => {
    const d = fatal(readJsonText('{\n  "a": 1,\n  "b": }'));
    expect(d.code).toBe('NOT_JSON');
    expect(d.severity).toBe('error');
    expect(d.path).toBeUndefined();
    expect([d.line, d.column]).toEqual([3, 8]);
    expect(d.message).toContain('line 3, column 8');
  });

  it.each([
    ['a trailing comma in an object', '{"a": 1,}', { line: 1, column: 9 }],
    ['a trailing comma in an array', '[1, 2,]', { line: 1, column: 7 }],
    ['a line comment', '// note\n{}', { line: 1, column: 1 }],
    ['a block comment', '{"a": /* no */ 1}', { line: 1, column: 7 }],
    ['text after the value', '{"a": 1} x', { line: 1, column: 10 }],
    ['empty text', '', { line: 1, column: 1 }],
    ['single quotes', "{'a': 1}", { line: 1, column: 2 }],
  ])('refuses %s', (_name, text, start) => {
    const d = fatal(readJsonText(text));
    expect(d.code).toBe('NOT_JSON');
    expect({ line: d.line, column: d.column }).toEqual(start);
  });
});

describe('readJsonText: limits', () => {
  it('refuses text longer than maxLength with TOO_LARGE, before reading it', () => {
    const d = fatal(readJsonText('{"a": "0123456789"}', { maxLength: 10, maxDepth: 64 }));
    expect(d.code).toBe('TOO_LARGE');
    expect(d.message).toContain('10');
    expect(fatal(readJsonText('{ not json at all', { maxLength: 5, maxDepth: 64 })).code).toBe('TOO_LARGE');
  });

  it('accepts text exactly at maxLength', () => {
    expect(ok(readJsonText('[1,2]', { maxLength: 5, maxDepth: 64 })).value).toEqual([1, 2]);
  });

  it('accepts 64 levels and refuses 65 with TOO_DEEP at the 65th bracket', () => {
    expect(DEFAULT_JSON_LIMITS.maxDepth).toBe(64);
    expect(ok(readJsonText(nested(64))).diagnostics).toEqual([]);
    const d = fatal(readJsonText(nested(65)));
    expect(d.code).toBe('TOO_DEEP');
    expect([d.line, d.column]).toEqual([1, 65]);
  });

  it('counts objects and arrays together', () => {
    const text = '{"a":'.repeat(33) + nested(32) + '}'.repeat(33);
    expect(fatal(readJsonText(text)).code).toBe('TOO_DEEP');
  });

  it('refuses 10,000 levels without throwing', () => {
    let result: JsonTextResult | undefined;
    expect(() => {
      result = readJsonText(nested(10_000));
    }).not.toThrow();
    expect(result?.ok).toBe(false);
    if (result && !result.ok) expect(result.diagnostic.code).toBe('TOO_DEEP');
  });

  it('refuses 10,000 unclosed levels with TOO_DEEP too', () => {
    expect(fatal(readJsonText('{"a":['.repeat(10_000))).code).toBe('TOO_DEEP');
  });
});

describe('readJsonText: DUPLICATE_MEMBER', () => {
  it('reports the second occurrence with its path and range, and keeps the first value', () => {
    const r = ok(readJsonText('{"a": 1, "a": 2}'));
    expect(r.value).toEqual({ a: 1 });
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({
      code: 'DUPLICATE_MEMBER',
      severity: 'error',
      path: '/a',
      line: 1,
      column: 10,
      endLine: 1,
      endColumn: 13,
    });
  });

  it('reports nested duplicates by their pointer', () => {
    const text = '{\n  "rules": [\n    { "effect": "allow", "effect": "deny" }\n  ]\n}';
    const r = ok(readJsonText(text));
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: 'DUPLICATE_MEMBER',
        path: '/rules/0/effect',
        line: 3,
        column: 26,
        endLine: 3,
        endColumn: 34,
      }),
    ]);
  });

  it('escapes member names in the path and reports every extra occurrence', () => {
    const r = ok(readJsonText('{"a/b": 1, "a/b": 2, "a/b": 3}'));
    expect(r.diagnostics.map((d) => [d.code, d.path, d.column])).toEqual([
      ['DUPLICATE_MEMBER', '/a~1b', 12],
      ['DUPLICATE_MEMBER', '/a~1b', 22],
    ]);
  });

  it('detects a duplicated "__proto__"', () => {
    const r = ok(readJsonText('{"__proto__": 1, "__proto__": 2}'));
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([['DUPLICATE_MEMBER', '/__proto__']]);
  });
});

describe('readJsonText: INEXACT_NUMBER', () => {
  it.each([
    ['0.1', 0.1],
    ['1e3', 1000],
    ['1E3', 1000],
    ['1.0', 1],
    ['9007199254740992', 2 ** 53],
    ['9007199254740993', 2 ** 53],
    ['-9007199254740992', -(2 ** 53)],
    ['1.00000000000000001', 1],
  ])('reports %s at its path', (literal) => {
    const text = `{\n  "limits": [0, ${literal}]\n}`;
    const r = ok(readJsonText(text));
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: 'INEXACT_NUMBER',
        severity: 'error',
        path: '/limits/1',
        line: 2,
        column: 17,
        endLine: 2,
        endColumn: 17 + literal.length,
      }),
    ]);
    expect(r.diagnostics[0]?.message).toContain(literal);
  });

  it('reports each inexact number with its own path', () => {
    const r = ok(readJsonText('{"a": 0.1, "b": {"c": [1e3, 1.0]}}'));
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['INEXACT_NUMBER', '/a'],
      ['INEXACT_NUMBER', '/b/c/0'],
      ['INEXACT_NUMBER', '/b/c/1'],
    ]);
  });

  it.each(['0', '-5', '12', '9007199254740991', '-9007199254740991'])('accepts the exact integer %s', (literal) => {
    const r = ok(readJsonText(`[${literal}]`));
    expect(r.diagnostics).toEqual([]);
    expect(r.value).toEqual([Number(literal)]);
  });
});

describe('readJsonText: "__proto__"', () => {
  it('stays an own enumerable member and leaves the prototype alone', () => {
    const r = ok(readJsonText('{"__proto__": {"polluted": true}, "a": 1}'));
    const value = r.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')).toMatchObject({ value: { polluted: true }, enumerable: true });
    expect(value.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(resolvePointer(value, parsePointer('/__proto__/polluted') ?? [])).toBe(true);
  });

  it('keeps a nested "__proto__" an ordinary member too', () => {
    const r = ok(readJsonText('{"rules": [{"__proto__": {"effect": "allow"}}]}'));
    const rule = (r.value as { rules: Record<string, unknown>[] }).rules[0] as Record<string, unknown>;
    expect(rule.effect).toBeUndefined();
    expect(Object.hasOwn(rule, '__proto__')).toBe(true);
  });
});

describe('readJsonText: rangeOf', () => {
  const text = '{\n  "a": [\n    10,\n    20\n  ],\n  "b/c": {"~d": "x"}\n}';
  const r = ok(readJsonText(text));

  it('locates array elements', () => {
    expect(r.rangeOf('/a/1')).toEqual({ start: { line: 4, column: 5 }, end: { line: 4, column: 7 } });
    expect(r.rangeOf('/a/0')).toEqual({ start: { line: 3, column: 5 }, end: { line: 3, column: 7 } });
  });

  it('locates members, the whole document and escaped names', () => {
    expect(r.rangeOf('/a')).toEqual({ start: { line: 2, column: 8 }, end: { line: 5, column: 4 } });
    expect(r.rangeOf('')).toEqual({ start: { line: 1, column: 1 }, end: { line: 7, column: 2 } });
    expect(r.rangeOf('/b~1c/~0d')).toEqual({ start: { line: 6, column: 17 }, end: { line: 6, column: 20 } });
  });

  it('is undefined where nothing is', () => {
    expect(r.rangeOf('/a/2')).toBeUndefined();
    expect(r.rangeOf('/a/-')).toBeUndefined();
    expect(r.rangeOf('/z')).toBeUndefined();
    expect(r.rangeOf('/a/0/x')).toBeUndefined();
  });

  it('follows RFC 6901 array indexes, as resolvePointer does: "01" and "" are not indexes', () => {
    // The value at these pointers is MISSING, so no range should be given for them.
    expect(resolvePointer(r.value, parsePointer('/a/01') ?? [])).toBe(MISSING);
    expect(r.rangeOf('/a/01')).toBeUndefined();
    expect(r.rangeOf('/a/')).toBeUndefined();
    expect(r.rangeOf('/a/1.0')).toBeUndefined();
  });
});

describe('formatDiagnostic', () => {
  const range = { line: 3, column: 8, endLine: 3, endColumn: 9 };

  it('names the line and column when the text places it, even with a path', () => {
    expect(
      formatDiagnostic('policy.json', { code: 'UNKNOWN_MEMBER', severity: 'error', message: 'unknown', path: '/rules/0/efect', ...range }),
    ).toBe('policy.json:3:8: UNKNOWN_MEMBER: unknown');
    expect(formatDiagnostic('policy.json', { code: 'UNKNOWN_MEMBER', severity: 'error', message: 'unknown', path: '/rules/0/efect' })).toBe(
      'policy.json: UNKNOWN_MEMBER at /rules/0/efect: unknown',
    );
  });

  it('marks a warning and a note', () => {
    expect(formatDiagnostic('rules.yaml', { code: 'write_ungoverned', severity: 'warning', message: 'no rule', ...range })).toBe(
      'rules.yaml:3:8: write_ungoverned: no rule (warning)',
    );
    expect(formatDiagnostic('rules.yaml', { code: 'PINNED_AT_RUNNING', severity: 'info', message: 'fyi' })).toBe(
      'rules.yaml: PINNED_AT_RUNNING: fyi (info)',
    );
  });

  it('writes the whole-document path "" as /', () => {
    expect(formatDiagnostic('p.json', { code: 'MISSING_MEMBER', severity: 'error', message: 'add schema', path: '' })).toBe(
      'p.json: MISSING_MEMBER at /: add schema',
    );
  });

  it('uses FILE:LINE:COL for range-only diagnostics', () => {
    const d = fatal(readJsonText('{\n  "a": 1,\n  "b": }'));
    expect(formatDiagnostic('p.json', d)).toBe(`p.json:3:8: NOT_JSON: ${d.message}`);
    expect(formatDiagnostic('p.json', { code: 'TOO_DEEP', severity: 'error', message: 'deep', ...range })).toBe(
      'p.json:3:8: TOO_DEEP: deep',
    );
  });

  it('falls back to FILE: CODE: message with neither', () => {
    expect(formatDiagnostic('p.json', { code: 'TOO_LARGE', severity: 'error', message: 'big' })).toBe('p.json: TOO_LARGE: big');
  });
});

describe('positionAt', () => {
  const text = 'ab\ncd\n\nef';

  it.each([
    [0, { line: 1, column: 1 }],
    [1, { line: 1, column: 2 }],
    [2, { line: 1, column: 3 }],
    [3, { line: 2, column: 1 }],
    [4, { line: 2, column: 2 }],
    [6, { line: 3, column: 1 }],
    [7, { line: 4, column: 1 }],
    [9, { line: 4, column: 3 }],
  ])('puts offset %d at %j', (offset, position) => {
    expect(positionAt(text, offset)).toEqual(position);
  });

  it('clamps offsets past the end', () => {
    expect(positionAt(text, 100)).toEqual({ line: 4, column: 3 });
  });

  it('counts UTF-16 code units and breaks lines on \\n only', () => {
    expect(positionAt('😀x', 2)).toEqual({ line: 1, column: 3 });
    expect(positionAt('a\r\nb', 3)).toEqual({ line: 2, column: 1 });
    expect(positionAt('a\r\nb', 2)).toEqual({ line: 1, column: 3 });
  });
});
