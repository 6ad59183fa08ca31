// The CLI's --json writer for server answers (src/cli/json-out.ts): every JSON value laid out exactly as
// JSON.stringify(value, null, 2) lays it out, and a number the exact reader kept as written printed as written.
import { readJsonText } from '@tollgate/engine/source';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonOut } from '../src/cli/json-out.ts';

describe('jsonOut', () => {
  it('lays out every JSON value as JSON.stringify(value, null, 2) does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(jsonOut(value)).toBe(`${JSON.stringify(value, null, 2)}\n`);
      }),
    );
  });

  it('lays out what the exact reader read of any JSON text the same way, its kept numbers among it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // JSON.stringify writes each double's shortest lexeme: the reader keeps every one that is not a safe integer.
        const read = readJsonText(JSON.stringify(value));
        if (!read.ok) throw new Error('JSON.stringify wrote JSON');
        expect(jsonOut(read.value)).toBe(`${JSON.stringify(value, null, 2)}\n`);
      }),
    );
  });

  it('prints a number kept as written with its own lexeme, not its double', () => {
    const read = readJsonText('{"a": [1.50, {"b": 1e3}], "c": 2, "d": 0.10000000000000000001}');
    if (!read.ok) throw new Error('not JSON');
    expect(jsonOut(read.value)).toBe(
      '{\n  "a": [\n    1.50,\n    {\n      "b": 1e3\n    }\n  ],\n  "c": 2,\n  "d": 0.10000000000000000001\n}\n',
    );
  });
});
