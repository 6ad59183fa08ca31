// Unit tests of what each role is offered on a rule set.
import { describe, expect, it } from 'vitest';
import type { Ruleset } from './api/types.ts';
import { canBecomeActive, permissionsOf, statusChoices } from './ruleset-permissions.ts';

const set = (over: Partial<Ruleset>): Ruleset => ({
  id: 'rulesets/support.ruleset.json',
  version_id: 2,
  active_version: 1,
  draft: true,
  status: 'active',
  name: 'Support',
  pins: [],
  newer_pins: 0,
  runs_last_30_days: 0,
  versions: [],
  ...over,
});

describe('permissionsOf', () => {
  it('offers owners and admins everything, developers re-pinning only, others nothing', () => {
    expect(permissionsOf('owner')).toEqual({ canRepin: true, canSteward: true });
    expect(permissionsOf('admin')).toEqual({ canRepin: true, canSteward: true });
    expect(permissionsOf('developer')).toEqual({ canRepin: true, canSteward: false });
    expect(permissionsOf('viewer')).toEqual({ canRepin: false, canSteward: false });
    expect(permissionsOf('approver')).toEqual({ canRepin: false, canSteward: false });
    expect(permissionsOf(null)).toEqual({ canRepin: false, canSteward: false });
  });
});

describe('statusChoices', () => {
  it('offers every other lifecycle status, and none for an archived set (restore instead)', () => {
    expect(statusChoices('active')).toEqual(['draft', 'test', 'disabled']);
    expect(statusChoices('draft')).toEqual(['test', 'active', 'disabled']);
    expect(statusChoices('archived')).toEqual([]);
  });
});

describe('canBecomeActive', () => {
  it('is true for a draft version of a live set, false for the active one or an archived set', () => {
    expect(canBecomeActive(set({}))).toBe(true);
    expect(canBecomeActive(set({ version_id: 1 }))).toBe(false);
    expect(canBecomeActive(set({ status: 'archived' }))).toBe(false);
  });
});
