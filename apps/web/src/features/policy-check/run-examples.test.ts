// runExamples: the repository's refunds examples against the sample policy, and what an edit does to them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runExamples } from './run-examples.ts';
import { SAMPLE_POLICY } from './sample-policy.ts';

const SUITE = readFileSync(new URL('../../../../../examples/refunds.examples.json', import.meta.url), 'utf8');

describe('runExamples', () => {
  it('passes every refunds example against the sample policy', () => {
    const run = runExamples(SAMPLE_POLICY, SUITE);
    if (run.state !== 'ran') throw new Error(`expected a run, got ${run.state}`);
    expect(run.report.failed).toBe(0);
    expect(run.report.passed).toBe(run.report.results.length);
  });

  it('fails the example a lowered threshold flips, with the actual decision and rule', () => {
    const lowered = SAMPLE_POLICY.replace('"lte": "100" }', '"lte": "50" }');
    const run = runExamples(lowered, SUITE);
    if (run.state !== 'ran') throw new Error(`expected a run, got ${run.state}`);
    const failing = run.report.results.filter((r) => r.status === 'fail');
    expect(failing.length).toBeGreaterThan(0);
    for (const result of failing) expect(result.actual?.decision).not.toBe(result.expected.decision);
    expect(failing.map((r) => r.expected.rule)).toContain('refund-auto');
  });

  it('says when there is no suite, when it does not read, and when the policy has errors', () => {
    expect(runExamples(SAMPLE_POLICY, '  ')).toEqual({ state: 'empty' });
    expect(runExamples(SAMPLE_POLICY, '{"tools": [')).toEqual({
      state: 'suite_invalid',
      problems: [expect.stringMatching(/^Line 1: NOT_JSON: /)],
    });
    expect(runExamples(SAMPLE_POLICY, '{"tools": [],\n "examples": [{"name": "x"}]}')).toMatchObject({
      state: 'suite_invalid',
      problems: expect.arrayContaining([expect.stringMatching(/^Line 2, \/examples\/0\/tool: INVALID_VALUE: /)]),
    });
    // A member named twice is refused here as the edit seam refuses it, with its line.
    expect(runExamples(SAMPLE_POLICY, '{"tools": [],\n "examples": [],\n "examples": []}')).toEqual({
      state: 'suite_invalid',
      problems: [expect.stringMatching(/^Line 3, \/examples: DUPLICATE_MEMBER: /)],
    });
    expect(runExamples(SAMPLE_POLICY.replace('"default": "deny"', '"default": "allow"'), SUITE)).toEqual({ state: 'policy_invalid' });
  });
});
