// The record's canonical JSON (record/canonical-json.ts), written in one pass for the flat bodies entries have, agrees
// with the `canonicalize` package (RFC 8785) on generated values, and an entry's canonical form written from its
// body's text agrees with the package's form of the whole entry (chain.ts): the hashes a writer makes and a verifier
// checks are the RFC's.
import canonicalize from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalText } from '../src/server/record/canonical-json.ts';
import { CHAIN_FORM, canonicalForm } from '../src/server/record/chain.ts';
import { decisionBody, decisionBodyText } from '../src/server/record/entries.ts';

/** Strings of any UTF-16 code units but lone surrogates (RFC 8785 refuses those; see below). */
const text = fc.string({ unit: 'binary', maxLength: 24 });
const primitive = fc.oneof(
  text,
  fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const flat = fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), primitive, { maxKeys: 16 });

describe("the record's canonical JSON", () => {
  it('writes a flat body as canonicalize does', () => {
    fc.assert(
      fc.property(flat, (body) => {
        expect(canonicalText(body)).toBe(canonicalize(body));
      }),
      { numRuns: 500 },
    );
  });

  it('writes any JSON value as canonicalize does, nested ones through it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(canonicalText(value)).toBe(canonicalize(value));
      }),
      { numRuns: 300 },
    );
  });

  it("writes an entry's form from its body's text as canonicalize writes the whole entry", () => {
    const entry = fc.record({
      writer: text,
      seq: fc.integer({ min: 1, max: 2 ** 31 }),
      kind: text,
      at: text,
      body: flat,
      prev: fc.stringMatching(/^[0-9a-f]{64}$/),
    });
    fc.assert(
      fc.property(entry, (e) => {
        expect(canonicalForm(e)).toBe(canonicalize({ form: CHAIN_FORM, ...e }));
      }),
      { numRuns: 300 },
    );
  });

  it("writes a decision's body in one pass as canonicalText writes the object", () => {
    const nullable = fc.option(text, { nil: null });
    const row = fc.record({
      call_id: text,
      agent: text,
      tool: text,
      action: nullable,
      amount: nullable,
      currency: nullable,
      decision: text,
      rule: nullable,
      code: nullable,
      versions: text,
      arguments: nullable,
      arguments_digest: text,
      session: nullable,
      created_at: text,
      via: fc.constantFrom('http' as const, 'mcp' as const, null, undefined),
    });
    fc.assert(
      fc.property(row, (r) => {
        expect(decisionBodyText(r)).toBe(canonicalText(decisionBody(r)));
      }),
      { numRuns: 300 },
    );
  });

  it('sorts members by UTF-16 code units, and writes -0 and escapes as RFC 8785 says', () => {
    const body = { b: 1, a: '\u2028"\\', é: -0, Z: true, '\ud83d\ude00': null, '': 'é' };
    expect(canonicalText(body)).toBe('{"":"é","Z":true,"a":"\u2028\\"\\\\","b":1,"é":0,"😀":null}');
    expect(canonicalText(body)).toBe(canonicalize(body));
  });
});
