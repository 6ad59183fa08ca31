// Settings impact: a longer approval lifetime, the approved-only switch off, more approved rule sets,
// observe windows added, lengthened or relaxing more; narrowings unflagged.
import { describe, expect, it } from 'vitest';
import { analyzeSettingsImpact } from './impact-settings.ts';

const RUNNING = `approval_ttl_seconds: 3600
observe_windows:
  - {name: launch, starts: 2025-07-01T00:00:00Z, ends: 2025-07-08T00:00:00Z, relax: approvals}
approved_rulesets_only: true
approved_rulesets: [rulesets/support.ruleset.json@1]
`;

function subjects(after: string, before = RUNNING): string[] {
  const impact = analyzeSettingsImpact(before, after);
  expect(impact.widensSecurity).toBe(impact.widenedSubjects.length > 0);
  return impact.widenedSubjects;
}

const swap = (from: string, to: string) => {
  if (!RUNNING.includes(from)) throw new Error(`no ${from}`);
  return RUNNING.replace(from, to);
};

describe('settings impact: member-held keys', () => {
  const required = `${RUNNING}approvals_require_member_keys: true\n`;
  it('flags the requirement turned off, or left out, as widening', () => {
    expect(subjects(RUNNING, required)).toEqual(['approvals_require_member_keys true -> false']);
    const off = `${RUNNING}approvals_require_member_keys: false\n`;
    expect(subjects(off, required)).toEqual(['approvals_require_member_keys true -> false']);
  });
  it('does not flag the requirement turned on', () => {
    expect(subjects(required, RUNNING)).toEqual([]);
  });
});

describe('settings impact: four eyes on widening edits', () => {
  const held = `${RUNNING}review_widening_edits: true\n`;
  it('flags four eyes turned off, or left out, as widening', () => {
    expect(subjects(RUNNING, held)).toEqual(['review_widening_edits true -> false']);
    expect(subjects(`${RUNNING}review_widening_edits: false\n`, held)).toEqual(['review_widening_edits true -> false']);
  });
  it('does not flag four eyes turned on', () => {
    expect(subjects(held, RUNNING)).toEqual([]);
  });
});

describe('settings impact: widenings', () => {
  it.each([
    ['the approval lifetime raised', swap('3600', '14400'), ['approval_ttl_seconds 3600 -> 14400']],
    ['the approval lifetime left to its default, longer', swap('approval_ttl_seconds: 3600\n', ''), ['approval_ttl_seconds 3600 -> 86400']],
    [
      'approved-only turned off',
      swap('approved_rulesets_only: true', 'approved_rulesets_only: false'),
      ['approved_rulesets_only true -> false'],
    ],
    [
      'a rule set approved',
      swap('[rulesets/support.ruleset.json@1]', '[rulesets/support.ruleset.json@1, rulesets/sales.ruleset.json@1]'),
      ['approved_rulesets + rulesets/sales.ruleset.json@1'],
    ],
    [
      'an observe window added',
      swap(
        'approved_rulesets_only',
        '  - {name: audit, starts: 2025-09-01T00:00:00Z, ends: 2025-09-02T00:00:00Z, relax: approvals}\napproved_rulesets_only',
      ),
      ['observe_windows/audit added'],
    ],
    [
      'a window started earlier',
      swap('starts: 2025-07-01T00:00:00Z', 'starts: 2025-06-30T00:00:00Z'),
      ['observe_windows/launch starts 2025-07-01T00:00:00Z -> 2025-06-30T00:00:00Z'],
    ],
    [
      'a window ended later',
      swap('ends: 2025-07-08T00:00:00Z', 'ends: 2025-07-08T00:00:00-02:00'),
      ['observe_windows/launch ends 2025-07-08T00:00:00Z -> 2025-07-08T00:00:00-02:00'],
    ],
    ['a window relaxing denials', swap('relax: approvals', 'relax: denials'), ['observe_windows/launch relax approvals -> denials']],
  ])('%s', (_name, after, expected) => {
    expect(subjects(after)).toEqual(expected);
  });
});

describe('settings impact: narrowings and identity are never flagged', () => {
  it.each([
    ['identical', RUNNING],
    ['the approval lifetime shortened', swap('3600', '600')],
    ['a window removed', swap('  - {name: launch, starts: 2025-07-01T00:00:00Z, ends: 2025-07-08T00:00:00Z, relax: approvals}\n', '')],
    ['a window shortened', swap('ends: 2025-07-08T00:00:00Z', 'ends: 2025-07-02T00:00:00Z')],
    ['an approval withdrawn', swap('[rulesets/support.ruleset.json@1]', '[]')],
  ])('%s', (_name, after) => {
    expect(subjects(after)).toEqual([]);
  });

  it('approved rule sets added while approved-only is off are not flagged; turning it on is not either', () => {
    const off = 'approved_rulesets_only: false\n';
    expect(subjects('approved_rulesets_only: false\napproved_rulesets: [rulesets/a.ruleset.json@1]\n', off)).toEqual([]);
    expect(subjects('approved_rulesets_only: true\napproved_rulesets: [rulesets/a.ruleset.json@1]\n', off)).toEqual([]);
  });

  it('a first settings file is compared with the defaults', () => {
    expect(analyzeSettingsImpact(undefined, 'approved_rulesets_only: false\n').widensSecurity).toBe(false);
    expect(analyzeSettingsImpact(undefined, RUNNING).widenedSubjects).toEqual(['observe_windows/launch added']);
    expect(analyzeSettingsImpact(undefined, 'approval_ttl_seconds: 172800\napproved_rulesets_only: false\n').widenedSubjects).toEqual([
      'approval_ttl_seconds 86400 -> 172800',
    ]);
    expect(analyzeSettingsImpact(RUNNING, 'approval_ttl_seconds: 1\n').widensSecurity).toBe(false);
  });
});
