// readExampleCalls: the stored refunds suite is sent as it is; a broken or empty suite is refused with its line.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readExampleCalls } from './example-calls.ts';
import { summariseExample } from './summarise.ts';

const ID = 'policies/refunds.examples.json';
const SUITE = readFileSync(new URL('../../../../../../examples/refunds.examples.json', import.meta.url), 'utf8');

describe('readExampleCalls', () => {
  it("reads the repository's refunds suite whole", () => {
    const read = readExampleCalls(ID, SUITE);
    if (!read.ok) throw new Error(read.message);
    expect(read.suite).toEqual(JSON.parse(SUITE));
  });

  it('names the line and code of the first problem, and how many more there are', () => {
    const broken = SUITE.replace('"tool": "orders.read"', '"tool": "nope"').replace('"decision": "allow"', '"decision": "yes"');
    const line = SUITE.split('\n').findIndex((l) => l.includes('"tool": "orders.read"')) + 1;
    expect(readExampleCalls(ID, broken)).toEqual({
      ok: false,
      message: `${ID} does not read: line ${line}: INVALID_VALUE: name one of the suite's tools (and 1 more). Fix it in the policy's editor.`,
    });
    expect(readExampleCalls(ID, '{"tools": [')).toMatchObject({ ok: false, message: expect.stringContaining('line 1: NOT_JSON: ') });
  });

  it('refuses a suite with no examples, since there would be nothing to compare', () => {
    expect(readExampleCalls(ID, '{"tools": [], "examples": []}')).toEqual({
      ok: false,
      message: `${ID} has no examples yet: add some in the policy's editor.`,
    });
  });
});

describe('summariseExample', () => {
  it('puts the name before the arguments', () => {
    expect(summariseExample({ name: 'small refund', arguments: { amount: '5' } })).toBe('small refund · {"amount":"5"}');
    expect(summariseExample({ name: 'gone', arguments: null })).toBe('gone · arguments unknown');
  });
});
