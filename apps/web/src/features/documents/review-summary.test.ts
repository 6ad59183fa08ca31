// The review page's summary: each change once, the counts, the direction, and a change's region and outcomes.
import { describe, expect, it } from 'vitest';
import type { DecisionDiffEntry, ImpactPreview, ReviewOutcome, ToolDecision } from './api/types.ts';
import { countWords, directionWords, previewChanges, regionWords, ruleChangeWords } from './review-summary.ts';

const held: ReviewOutcome = {
  decision: 'require_approval',
  rule: 'refund-approval',
  code: null,
  approvers: { roles: ['owner'], users: [] },
  fail_closed: false,
};
const allowed: ReviewOutcome = { decision: 'allow', rule: 'refund-auto', code: null, fail_closed: false };

/** The demo's widening (docs/review.md, "The demo's revert"), in the API's shape. */
const widening: DecisionDiffEntry = {
  kind: 'change',
  subject: { label: 'issue_refund (refund.issue)' },
  region: {
    amount: { lo: '100', lo_inclusive: false, hi: '250', hi_inclusive: true, words: '(100, 250]' },
    currency: 'USD',
    arguments: [],
  },
  from: held,
  to: allowed,
  direction: 'widens',
  witness: {
    tool: 'issue_refund',
    binding: { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } },
    arguments: '{"amount":"200"}',
  },
  words: 'issue_refund (refund.issue), amount in (100, 250] USD: require approval -> allow (widens)',
};
const atPoint: DecisionDiffEntry = {
  ...widening,
  region: {
    amount: { lo: '100', lo_inclusive: true, hi: '100', hi_inclusive: true, words: '= 100' },
    currency: 'USD',
    arguments: [{ path: '/env', words: '/env eq "prod"', any_of: [[{ op: 'eq', operand: 'prod', result: 'true' }]] }],
  },
  words: 'issue_refund (refund.issue), amount = 100 USD, /env eq "prod": require approval -> allow (widens)',
};

const map = { tool: 'issue_refund', action: 'refund.issue', decision: 'allow', words: '' } as ToolDecision;
const tool = { tool: 'issue_refund', action: 'refund.issue', running: map, candidate: map, changes: [widening] };

function preview(catalogues: ImpactPreview['catalogues']): ImpactPreview {
  return { id: 'p', running: 1, candidate: 2, source: 'agents', catalogues, widens: true, narrows: false, depends: false };
}

describe('previewChanges', () => {
  it('names a tool and a change once however many catalogues list them', () => {
    const both = previewChanges(
      preview([
        { id: 'a.yaml', agents: ['support-bot'], tools: [tool], unchanged: ['read_order'] },
        { id: 'b.yaml', agents: ['ops-bot'], tools: [{ ...tool, changes: [widening, atPoint] }], unchanged: ['read_order', 'send_payout'] },
      ]),
    );
    expect(both.tools).toEqual(['issue_refund']);
    expect(both.entries.map((e) => e.words)).toEqual([widening.words, atPoint.words]);
    expect(both.unchanged).toEqual(['read_order', 'send_payout']);
    expect(countWords(both)).toBe('1 tool changes decision in 2 regions; 2 tools do not');
  });

  it('says when nothing changes', () => {
    const none = previewChanges(preview([{ id: 'a.yaml', agents: [], tools: [], unchanged: ['read_order'] }]));
    expect(countWords(none)).toBe('No tool changes decision; 1 tool does not');
  });
});

describe('words', () => {
  it('says the direction', () => {
    expect(directionWords({ widens: false, narrows: true, depends: true })).toBe('does not widen security, narrows, depends on arguments');
  });

  it('says a region as the engine does, at a point and with argument conditions', () => {
    for (const entry of [widening, atPoint]) expect(entry.words.startsWith(`${regionWords(entry)}: `)).toBe(true);
  });

  it('says which rule gives which outcome, without the summary sentence', () => {
    expect(ruleChangeWords(widening)).toBe(
      'issue_refund (refund.issue), amount in (100, 250] USD: require approval by role owner (refund-approval) → allow (refund-auto)',
    );
    expect(ruleChangeWords(widening)).not.toContain('(widens)');
  });
});
