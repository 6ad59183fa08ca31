// Unit tests of the pin labels and badges.
import { describe, expect, it } from 'vitest';
import type { RulesetPin } from './api/types.ts';
import { inUseLabel, newerBadge, newerCountLabel, pinnedLabel } from './pin-labels.ts';

const pin = (over: Partial<RulesetPin>): RulesetPin => ({
  rule_id: 'policies/refunds.policy.json',
  version_id: 1,
  used_version: 1,
  running_version: 1,
  newer: false,
  kind: 'policy',
  status: 'active',
  name: 'refunds',
  description: null,
  owner: 'olivia',
  ...over,
});

describe('pin labels', () => {
  it('says a pin without a version (stored before pins were resolved) has none', () => {
    expect(pinnedLabel(pin({ version_id: null }))).toBe('no version');
    expect(pinnedLabel(pin({ version_id: 3 }))).toBe('version 3');
  });
  it('says which version is in use, or that none runs', () => {
    expect(inUseLabel(pin({ used_version: 2 }))).toBe('version 2');
    expect(inUseLabel(pin({ version_id: null, used_version: null, running_version: null }))).toBe('none: update to latest');
  });
  it('badges a pin behind its rule with the running version', () => {
    expect(newerBadge(pin({ newer: true, running_version: 4 }))).toBe('newer version 4');
    expect(newerBadge(pin({ newer: false, running_version: 4 }))).toBeNull();
  });
  it('counts newer pins for the list', () => {
    expect(newerCountLabel(0)).toBeNull();
    expect(newerCountLabel(1)).toBe('1 newer version');
    expect(newerCountLabel(3)).toBe('3 newer versions');
  });
});
