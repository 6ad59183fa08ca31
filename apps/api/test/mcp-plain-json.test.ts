// One read per message (docs/mcp.md): the SDK's plain copy of what the exact reader read is what JSON.parse
// would have read, numbers written in any JSON form included, and the gate keeps the exact arguments.
import { JsonNumber, readJsonText } from '@tollgate/engine/source';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExactArguments, readExactMessage } from '../src/server/mcp/exact-stdio-transport.ts';
import { plainJson } from '../src/server/mcp/plain-json.ts';

/** A JSON number lexeme in any form the grammar allows: signs, leading zero, fractions, exponents. */
const lexeme = fc
  .tuple(
    fc.constantFrom('', '-'),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,20}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E', 'e+', 'E-', 'e-'), fc.stringMatching(/^[0-9]{1,3}$/)), { nil: undefined }),
  )
  .map(([sign, int, frac, exp]) => `${sign}${int}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : exp.join('')}`);

const space = fc.constantFrom('', ' ', '\n', '\t ');

/** JSON texts without a member named twice, written with the lexemes above. */
const { text } = fc.letrec<{ text: string }>((tie) => ({
  text: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    lexeme,
    fc.constantFrom('true', 'false', 'null'),
    fc.string().map((s) => JSON.stringify(s)),
    fc.array(tie('text'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .uniqueArray(fc.tuple(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'amount')), tie('text')), {
        maxLength: 4,
        selector: ([key]) => key,
      })
      .chain((members) =>
        space.map((ws) => `{${members.map(([key, value]) => `${ws}${JSON.stringify(key)}${ws}:${value}`).join(',')}${ws}}`),
      ),
  ),
}));

describe('the plain copy of an exactly read value', () => {
  it('deep-equals JSON.parse of the text, for generated JSON texts without duplicates', () => {
    fc.assert(
      fc.property(text, (t) => {
        const read = readJsonText(t);
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        // toEqual, not toStrictEqual: a member named constructor is data here, not the object's class.
        expect(plainJson(read.value)).toEqual(JSON.parse(t));
      }),
      { numRuns: 500 },
    );
  });

  it('shares no object with the exact value', () => {
    const read = readJsonText('{"a": {"b": [1.50, 2]}}');
    if (!read.ok) throw new Error('read');
    const plain = plainJson(read.value) as { a: { b: unknown[] } };
    const exact = read.value as { a: { b: unknown[] } };
    expect(plain.a).not.toBe(exact.a);
    expect(plain.a.b).not.toBe(exact.a.b);
    expect(exact.a.b[0]).toEqual(new JsonNumber('1.50'));
  });
});

describe('readExactMessage', () => {
  it('keeps the exact arguments under the id the SDK reads, even one written 1.0', () => {
    const exact = new ExactArguments();
    const read = readExactMessage(
      '{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"issue_refund","arguments":{"amount":500.00000000000001}}}',
      exact,
    );
    expect(read).toEqual({
      ok: true,
      message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'issue_refund', arguments: { amount: 500 } } },
    });
    expect(exact.take(1)).toEqual({ value: { amount: new JsonNumber('500.00000000000001') } });
    expect(exact.take(1)).toBeUndefined();
  });

  it('gives each of two calls with one id its own arguments, in the order read', () => {
    const exact = new ExactArguments();
    const call = (amount: string) =>
      `{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"issue_refund","arguments":{"amount":"${amount}"}}}`;
    expect(readExactMessage(`[${call('5000')},${call('5')}]`, exact).ok).toBe(true);
    expect(exact.take('x')).toEqual({ value: { amount: '5000' } });
    expect(exact.take('x')).toEqual({ value: { amount: '5' } });
  });

  it('refuses a member named twice with the reader’s code, keeping nothing', () => {
    const exact = new ExactArguments();
    const read = readExactMessage(
      '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":{"amount":"5","amount":"5000"}}}',
      exact,
    );
    expect(read.ok).toBe(false);
    expect(read.ok ? '' : read.problem).toMatch(/^DUPLICATE_MEMBER: /);
    expect(exact.take(2)).toBeUndefined();
  });
});
