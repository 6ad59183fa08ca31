// Rule set impact: pins dropped or moved, moves judged by the pinned document's own impact when known.
import { describe, expect, it } from 'vitest';
import { analyzeRulesetImpact } from './impact-ruleset.ts';
import type { Impact, ImpactContext } from './types.ts';

const set = (pins: unknown[], status = 'active') => JSON.stringify({ name: 'Support', status, pins });
const RUNNING = set([
  { document: 'policies/refunds.policy.json', sequence: 2 },
  { document: 'sheets/shop.rules.yaml', sequence: 5 },
  { document: 'colang/shop.co' },
]);

function subjects(after: string, context?: ImpactContext, before = RUNNING): string[] {
  const impact = analyzeRulesetImpact(before, after, context);
  expect(impact.widensSecurity).toBe(impact.widenedSubjects.length > 0);
  return impact.widenedSubjects;
}

describe('rule set impact', () => {
  it('flags a pin dropped', () => {
    expect(subjects(set([{ document: 'policies/refunds.policy.json', sequence: 2 }, { document: 'colang/shop.co' }]))).toEqual([
      'pins/sheets/shop.rules.yaml dropped',
    ]);
  });

  it('flags a pin moved when nothing can tell what the new version does', () => {
    const moved = set([
      { document: 'policies/refunds.policy.json', sequence: 3 },
      { document: 'sheets/shop.rules.yaml' },
      { document: 'colang/shop.co', sequence: 7 },
    ]);
    expect(subjects(moved)).toEqual([
      'pins/policies/refunds.policy.json 2 -> 3',
      'pins/sheets/shop.rules.yaml 5 -> running',
      'pins/colang/shop.co running -> 7',
    ]);
  });

  it("asks for the pinned document's own impact, and passes its subjects on", () => {
    const calls: [string, number | undefined, number | undefined][] = [];
    const impactOfPin = (document: string, from: number | undefined, to: number | undefined): Impact => {
      calls.push([document, from, to]);
      return document.startsWith('policies/')
        ? { widensSecurity: true, widenedSubjects: ['rules/refund-auto amount lte 100 -> 250'] }
        : { widensSecurity: false, widenedSubjects: [] };
    };
    const moved = set([
      { document: 'policies/refunds.policy.json', sequence: 3 },
      { document: 'sheets/shop.rules.yaml', sequence: 6 },
      { document: 'colang/shop.co' },
    ]);
    expect(subjects(moved, { impactOfPin })).toEqual([
      'pins/policies/refunds.policy.json 2 -> 3',
      'pins/policies/refunds.policy.json rules/refund-auto amount lte 100 -> 250',
    ]);
    expect(calls).toEqual([
      ['policies/refunds.policy.json', 2, 3],
      ['sheets/shop.rules.yaml', 5, 6],
    ]);
  });

  it('flags the move when the pinned impact cannot be told (undefined)', () => {
    const moved = set([
      { document: 'policies/refunds.policy.json', sequence: 1 },
      { document: 'sheets/shop.rules.yaml', sequence: 5 },
      { document: 'colang/shop.co' },
    ]);
    expect(subjects(moved, { impactOfPin: () => undefined })).toEqual(['pins/policies/refunds.policy.json 2 -> 1']);
  });

  it.each([
    ['identical', RUNNING],
    [
      'a pin added',
      set([
        { document: 'policies/refunds.policy.json', sequence: 2 },
        { document: 'sheets/shop.rules.yaml', sequence: 5 },
        { document: 'colang/shop.co' },
        { document: 'colang/extra.co' },
      ]),
    ],
    [
      'pins reordered',
      set([
        { document: 'colang/shop.co' },
        { document: 'sheets/shop.rules.yaml', sequence: 5 },
        { document: 'policies/refunds.policy.json', sequence: 2 },
      ]),
    ],
    ['a draft made active', RUNNING],
    [
      'archived with a replacement',
      JSON.stringify({ ...JSON.parse(RUNNING), status: 'archived', replaced_by: 'rulesets/next.ruleset.json' }),
    ],
    ['renamed, tagged', JSON.stringify({ ...JSON.parse(RUNNING), name: 'Support v2', tags: ['support'] })],
  ])('does not flag: %s', (name, after) => {
    const before = name === 'a draft made active' ? RUNNING.replace('"active"', '"draft"') : RUNNING;
    expect(subjects(after, undefined, before)).toEqual([]);
  });

  it('a new rule set, or a text that does not load, widens nothing', () => {
    expect(analyzeRulesetImpact(undefined, RUNNING)).toEqual({ widensSecurity: false, widenedSubjects: [] });
    expect(subjects(set([]))).toEqual([]);
  });
});
