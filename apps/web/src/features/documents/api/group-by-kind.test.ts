// Unit tests of the document grouping.
import { describe, expect, it } from 'vitest';
import { groupByKind } from './group-by-kind.ts';
import type { DocumentSummary } from './types.ts';

const doc = (id: string, kind: string | null): DocumentSummary => ({
  id,
  kind,
  status: 'running',
  running_sequence: 1,
  versions: 1,
  problems: [],
});

describe('groupByKind', () => {
  it('orders kinds as the design lists them, unknown last', () => {
    const groups = groupByKind([
      doc('settings.yaml', 'settings'),
      doc('x', null),
      doc('rulesets/s.ruleset.json', 'ruleset'),
      doc('policies/b.examples.json', 'examples'),
      doc('policies/b', 'policy'),
      doc('catalogue.yaml', 'catalogue'),
    ]);
    // A policy's example suite sits right after the policies.
    expect(groups.map((g) => g.kind)).toEqual(['catalogue', 'policy', 'examples', 'ruleset', 'settings', 'other']);
  });
});
