// Unit tests of what each role is offered: the one table every page asks.
import { describe, expect, it } from 'vitest';
import { canActivate, canApprove, canAuthorize, canEdit, canReadArguments, canRefreshUpstreams, canRunTrials } from './capabilities.ts';

const ROLES = ['owner', 'admin', 'approver', 'developer', 'viewer'] as const;
const offered = (can: (role: string | null) => boolean) => ROLES.filter((role) => can(role));

describe('capabilities', () => {
  it('offers each action to the roles the API takes it from', () => {
    expect(offered(canEdit)).toEqual(['owner', 'admin', 'developer']);
    expect(offered(canActivate)).toEqual(['owner', 'admin']);
    expect(offered(canAuthorize)).toEqual(['owner', 'admin']);
    expect(offered(canReadArguments)).toEqual(['owner', 'admin']);
    expect(offered(canRefreshUpstreams)).toEqual(['owner', 'admin']);
    expect(offered(canApprove)).toEqual(['owner', 'admin', 'approver']);
    expect(offered(canRunTrials)).toEqual(['owner', 'admin']);
  });
  it('offers nothing to an unknown member or an unknown role', () => {
    for (const can of [canEdit, canActivate, canAuthorize, canReadArguments, canRefreshUpstreams, canApprove, canRunTrials]) {
      expect([can(null), can(undefined), can('root'), can('')]).toEqual([false, false, false, false]);
    }
  });
});
