// Rule set impact: pins dropped or moved, moves judged by the pinned document's own impact when known.
import { describe, expect, it } from 'vitest';
import { analyzeRulesetImpact } from './impact-ruleset.ts';
import type { Impact, ImpactContext } from './types.ts';

const set = (pins: unknown[]) => JSON.stringify({ name: 'Support', pins });
const RUNNING = set([
  { rule_id: 'policies/refunds.policy.json', version_id: 2 },
  { rule_id: 'sheets/shop.rules.yaml', version_id: 5 },
  { rule_id: 'colang/shop.co' },
]);

function subjects(after: string, context?: ImpactContext, before = RUNNING): string[] {
  const impact = analyzeRulesetImpact(before, after, context);
  expect(impact.widensSecurity).toBe(impact.widenedSubjects.length > 0);
  return impact.widenedSubjects;
}

describe('rule set impact', () => {
  it('flags a pin dropped', () => {
    expect(subjects(set([{ rule_id: 'policies/refunds.policy.json', version_id: 2 }, { rule_id: 'colang/shop.co' }]))).toEqual([
      'pins/sheets/shop.rules.yaml dropped',
    ]);
  });

  it('flags a pin moved when nothing can tell what the new version does', () => {
    const moved = set([
      { rule_id: 'policies/refunds.policy.json', version_id: 3 },
      { rule_id: 'sheets/shop.rules.yaml' },
      { rule_id: 'colang/shop.co', version_id: 7 },
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
      { rule_id: 'policies/refunds.policy.json', version_id: 3 },
      { rule_id: 'sheets/shop.rules.yaml', version_id: 6 },
      { rule_id: 'colang/shop.co' },
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
      { rule_id: 'policies/refunds.policy.json', version_id: 1 },
      { rule_id: 'sheets/shop.rules.yaml', version_id: 5 },
      { rule_id: 'colang/shop.co' },
    ]);
    expect(subjects(moved, { impactOfPin: () => undefined })).toEqual(['pins/policies/refunds.policy.json 2 -> 1']);
  });

  it.each([
    ['identical', RUNNING],
    [
      'a pin added',
      set([
        { rule_id: 'policies/refunds.policy.json', version_id: 2 },
        { rule_id: 'sheets/shop.rules.yaml', version_id: 5 },
        { rule_id: 'colang/shop.co' },
        { rule_id: 'colang/extra.co' },
      ]),
    ],
    [
      'pins reordered',
      set([
        { rule_id: 'colang/shop.co' },
        { rule_id: 'sheets/shop.rules.yaml', version_id: 5 },
        { rule_id: 'policies/refunds.policy.json', version_id: 2 },
      ]),
    ],
    ['described', JSON.stringify({ ...JSON.parse(RUNNING), description: 'What support is held to.' })],
    ['renamed, tagged', JSON.stringify({ ...JSON.parse(RUNNING), name: 'Support v2', tags: ['support'] })],
  ])('does not flag: %s', (_name, after) => {
    expect(subjects(after, undefined, RUNNING)).toEqual([]);
  });

  it('a new rule set, or a text that does not load, widens nothing', () => {
    expect(analyzeRulesetImpact(undefined, RUNNING)).toEqual({ widensSecurity: false, widenedSubjects: [] });
    expect(subjects(set([]))).toEqual([]);
  });
});
