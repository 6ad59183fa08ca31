// The gate against an independent strict reader, over real HTTP: for generated argument texts (amounts as
// decimal strings and as JSON numbers in every spelling, escaped member names, duplicated members, extra
// members), the gate's answer equals the refunds policy's decision on the text as this file's own reader
// reads it; and duplicating, removing, re-typing or re-spelling the amount of a call the policy refuses or
// holds never gains it an allow.
import Decimal from 'decimal.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LooseJson, startServer, type TestServer } from './server-harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.stop();
});

/** A number as written. */
interface Lexeme {
  lexeme: string;
}
class Duplicate extends Error {}

/** A strict JSON reader written for this test: recursive descent, duplicates refused, numbers as lexemes. */
function strictRead(text: string): unknown {
  let i = 0;
  let duplicated = false;
  const space = () => {
    while (/[ \t\n\r]/.test(text[i] ?? '')) i++;
  };
  const fail = (): never => {
    throw new SyntaxError(`not JSON at ${i}`);
  };
  const string = (): string => {
    if (text[i] !== '"') fail();
    i++;
    let out = '';
    for (;;) {
      const c = text[i++];
      if (c === undefined) fail();
      if (c === '"') return out;
      if (c === '\\') {
        const e = text[i++];
        if (e === 'u') {
          out += String.fromCharCode(Number.parseInt(text.slice(i, i + 4), 16));
          i += 4;
        } else
          out +=
            ({ '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e ?? ''] ?? fail();
      } else out += c;
    }
  };
  const value = (): unknown => {
    space();
    const c = text[i];
    if (c === '{') {
      i++;
      const out = new Map<string, unknown>();
      space();
      if (text[i] === '}') {
        i++;
        return out;
      }
      for (;;) {
        space();
        const key = string();
        space();
        if (text[i++] !== ':') fail();
        // A repeated member is refused once the whole text is known to be JSON (syntax first).
        if (out.has(key)) {
          duplicated = true;
          value();
        } else out.set(key, value());
        space();
        const d = text[i++];
        if (d === '}') return out;
        if (d !== ',') fail();
      }
    }
    if (c === '[') {
      i++;
      const out: unknown[] = [];
      space();
      if (text[i] === ']') {
        i++;
        return out;
      }
      for (;;) {
        out.push(value());
        space();
        const d = text[i++];
        if (d === ']') return out;
        if (d !== ',') fail();
      }
    }
    if (c === '"') return string();
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (m) {
      i += m[0].length;
      return { lexeme: m[0] } satisfies Lexeme;
    }
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, i)) {
        i += word.length;
        return v;
      }
    }
    return fail();
  };
  const v = value();
  space();
  if (i !== text.length) fail();
  if (duplicated) throw new Duplicate();
  return v;
}

/** What the demo's refunds policy decides for support-bot's issue_refund on these arguments (policies/refunds.policy.json). */
function expected(argumentsText: string): { status: 400; code: string } | { status: 200; decision: string } {
  let args: unknown;
  try {
    args = strictRead(argumentsText);
  } catch (err) {
    if (err instanceof Duplicate) return { status: 400, code: 'DUPLICATE_MEMBER' };
    if (err instanceof SyntaxError) return { status: 400, code: 'INVALID_JSON' };
    throw err;
  }
  const amount = (args as Map<string, unknown>).get('amount');
  if (amount === undefined) return { status: 200, decision: 'deny' }; // a missing amount never escapes a deny rule
  let value: Decimal | undefined;
  if (typeof amount === 'string' && /^(0|[1-9][0-9]*)(\.[0-9]{1,18})?$/.test(amount)) value = new Decimal(amount);
  else if (typeof amount === 'object' && amount !== null && 'lexeme' in amount) {
    const { lexeme } = amount as Lexeme;
    if (/^(0|[1-9][0-9]*)$/.test(lexeme) && Number.isSafeInteger(Number(lexeme))) value = new Decimal(lexeme);
  }
  if (value === undefined) return { status: 200, decision: 'deny' }; // INVALID_AMOUNT
  if (value.gt(1000)) return { status: 200, decision: 'deny' };
  if (value.gt(100)) return { status: 200, decision: 'require_approval' };
  return { status: 200, decision: 'allow' };
}

async function gate(argumentsText: string): Promise<{ status: number; json: LooseJson }> {
  const r = await s.call('POST', '/v1/agents/support-bot/calls', {
    key: s.key('agent'),
    raw: `{"tool":"issue_refund","arguments":${argumentsText}}`,
    headers: { 'content-type': 'application/json' },
  });
  expect(r.status).not.toBe(500);
  return r;
}

function agrees(r: { status: number; json: LooseJson }, want: ReturnType<typeof expected>): void {
  expect(r.status).toBe(want.status);
  if (want.status === 200) expect(r.json.decision).toBe(want.decision);
  else expect(r.json.error.code).toBe(want.code);
}

const integer = fc.oneof(fc.constantFrom(0, 1, 5, 99, 100, 101, 999, 1000, 1001, 5000), fc.integer({ min: 0, max: 20000 }));
/** Spellings of one number: the canonical integer and the ones the gate must not read as it. */
const spelling = (n: number) =>
  fc.constantFrom(
    String(n),
    `${n}.0`,
    `${n}e0`,
    `${n}E+0`,
    `${n}.00000000000000001`,
    `${n}0e-1`,
    n === 0 ? '-0' : `-${n}`,
    n === 0 ? '0.0' : `${n - 1}.99999999999999999`,
  );
const amountText = fc.oneof(
  integer.chain((n) => spelling(n)),
  integer.map((n) => JSON.stringify(String(n))),
  integer.chain((n) => fc.constantFrom(`"${n}.50"`, `"${n}.0"`, `"0${n}"`, `"${n}e0"`, `"-${n}"`, `" ${n}"`)),
  fc.constantFrom('null', 'true', '[]', '{}', '"abc"'),
);
const amountKey = fc.constantFrom('"amount"', '"\\u0061mount"', '"amoun\\u0074"');
const extra = fc.constantFrom('', ',"note":"x"', ',"n":1.50', ',"deep":{"a":[1,2.0,{"b":null}]}', ',"note":"amount"');

describe('the gate agrees with a strict reader on generated argument texts', () => {
  it('decides every text as the refunds policy decides it read strictly', async () => {
    await fc.assert(
      fc.asyncProperty(amountKey, amountText, extra, fc.option(amountText, { nil: undefined }), async (key, amount, more, second) => {
        const text = `{${key}:${amount}${more}${second === undefined ? '' : `,"amount":${second}`}}`;
        agrees(await gate(text), expected(text));
      }),
      { numRuns: 150 },
    );
  });

  it('never gains an allow by duplicating, removing, re-typing or re-spelling the amount of a refused or held call', async () => {
    const mutate = (n: number) =>
      fc.oneof(
        spelling(n).map((a) => `{"amount":"${n}","amount":${a}}`),
        fc.constant('{}'),
        fc.constant(`{"amount":${n}}`),
        fc.constant(`{"amount":"${n}"}`),
        spelling(n).map((a) => `{"amount":${a}}`),
        spelling(n).map((a) => `{"\\u0061mount":${a}}`),
        fc.constant(`{"amount":["${n}"]}`),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 101, max: 100_000 }).chain((n) => fc.tuple(fc.constant(n), mutate(n))),
        async ([n, mutated]) => {
          const base = await gate(`{"amount":"${n}"}`);
          expect(base.json.decision).not.toBe('allow');
          const r = await gate(mutated);
          agrees(r, expected(mutated));
          if (r.status === 200) expect(r.json.decision).not.toBe('allow');
        },
      ),
      { numRuns: 100 },
    );
  });
});
