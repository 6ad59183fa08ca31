// canonicalPair: two versions written in one form, so only what changed differs; refusals say why.
import { readJsonText, readYamlText } from '@tollgate/engine/source';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { canonicalPair } from './canonical-text.ts';

const v1 = (text: string) => ({ label: 'Version 1', text });
const v2 = (text: string) => ({ label: 'Version 2', text });

/** The lines of `b` that are not at the same place in `a`: the canonical forms differ only there. */
function changedLines(a: string, b: string): string[] {
  const left = a.split('\n');
  return b.split('\n').filter((line, i) => left[i] !== line);
}

function canonical(language: 'json' | 'yaml', a: string, b: string): { original: string; modified: string } {
  const pair = canonicalPair(language, v1(a), v2(b));
  if (!pair.ok) throw new Error(pair.why);
  return pair;
}

describe('canonicalPair for JSON', () => {
  const compact = '{"default": "deny", "rules": [{"id": "refund-auto", "actions": ["refund.issue"], "amount": {"lte": "100"}}]}';
  const reformatted = JSON.stringify(
    { rules: [{ actions: ['refund.issue'], amount: { lte: '250' }, id: 'refund-auto' }], default: 'deny' },
    null,
    4,
  );

  it('shows a one-number change under re-serialisation as one changed line', () => {
    const { original, modified } = canonical('json', compact, reformatted);
    expect(changedLines(original, modified)).toEqual(['        "lte": "250"']);
    expect(original.startsWith('{\n  "default": "deny",\n  "rules": [\n')).toBe(true);
  });

  it('keeps every number as written', () => {
    const { original } = canonical('json', '{"a": 1.50, "b": 12345678901234567890, "c": -0, "d": 1E2}', '{}');
    expect(original).toBe('{\n  "a": 1.50,\n  "b": 12345678901234567890,\n  "c": -0,\n  "d": 1E2\n}\n');
  });

  it('matches array elements by id, so a rule moved keeps its twin key order', () => {
    const { modified } = canonical('json', '[{"id": "a", "x": 1, "y": 2}, {"id": "b", "y": 3, "x": 4}]', '[{"x": 4, "y": 3, "id": "b"}]');
    expect(modified).toBe('[\n  {\n    "id": "b",\n    "y": 3,\n    "x": 4\n  }\n]\n');
  });

  it('says why a text that is not JSON cannot be shown without formatting', () => {
    expect(canonicalPair('json', v1('{}'), v2('{"a": }'))).toEqual({
      ok: false,
      why: expect.stringMatching(/^Version 2 cannot be read: line 1, column 7: /),
    });
  });

  it('refuses a member named twice rather than hide one', () => {
    expect(canonicalPair('json', v1('{"a": 1, "a": 2}'), v2('{}'))).toEqual({
      ok: false,
      why: expect.stringMatching(/^Version 1 names a member twice \(line 1, column 10: member "a"/),
    });
  });

  it('has no canonical form for plain text', () => {
    expect(canonicalPair('plaintext', v1('a'), v2('b')).ok).toBe(false);
  });

  it('writes any JSON value back to the same value, whatever its layout and key order', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 0, max: 8 }), (value, indent) => {
        const { original, modified } = canonical('json', JSON.stringify(value), JSON.stringify(reversedKeys(value), null, indent));
        expect(modified).toBe(original);
        // The canonical form is JSON, and its own canonical form.
        expect(readJsonText(original).ok).toBe(true);
        expect(canonical('json', original, '{}').original).toBe(original);
      }),
      { numRuns: 150 },
    );
  });
});

describe('canonicalPair for YAML', () => {
  it('writes flow and block style, quotes and comments alike', () => {
    const block = '# the shop\nrules:\n  - action: refund_card\n    requires: [supervisor_approved]\n    when: { amount_over: 200 }\n';
    const flow = 'rules: [{when: {amount_over: 200}, requires: [\'supervisor_approved\'], "action": refund_card}]\n';
    const { original, modified } = canonical('yaml', block, flow);
    expect(modified).toBe(original);
    expect(original).toBe(
      'rules:\n  - action: refund_card\n    requires:\n      - supervisor_approved\n    when:\n      amount_over: 200\n',
    );
  });

  it('keeps a number with a fraction as written', () => {
    expect(canonical('yaml', 'at_most: 10.50\nname: "10.50"\n', '{}').original).toBe('at_most: 10.50\nname: "10.50"\n');
  });

  it('says why an alias cannot be written again', () => {
    const pair = canonicalPair('yaml', v1('a: &x 1\nb: *x\n'), v2('a: 1\n'));
    expect(pair).toEqual({
      ok: false,
      why: expect.stringMatching(/^Version 1 cannot be written again exactly: line 2, column 4: aliases/),
    });
  });

  it('writes any YAML value back to the same value, whatever its style', () => {
    fc.assert(
      fc.property(yamlValue, (value) => {
        const flow = stringify(value, { collectionStyle: 'flow' });
        const block = stringify(reversedKeys(value), { collectionStyle: 'block', indent: 4 });
        const { original, modified } = canonical('yaml', flow, block);
        expect(modified).toBe(original);
        const read = readYamlText(original);
        expect(read.ok ? read.value : read.diagnostic).toEqual(value);
      }),
      { numRuns: 150 },
    );
  });
});

/** Values YAML states exactly: strings, safe integers, booleans, null, in lists and maps. */
const yamlValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ minLength: 1 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** The same value with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(out, key, {
      value: reversedKeys((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
