// Unit tests of who is offered the approval buttons.
import { describe, expect, it } from 'vitest';
import { canDecide } from './can-decide.ts';
import type { Approval } from './types.ts';

const approval = { status: 'pending', approvers: ['m1'] } as Approval;

describe('canDecide', () => {
  it('offers an eligible approver the buttons', () => {
    expect(canDecide({ id: 'm1', role: 'approver' }, approval)).toBe(true);
  });
  it('does not offer a viewer, nor a member not listed', () => {
    expect(canDecide({ id: 'm1', role: 'viewer' }, approval)).toBe(false);
    expect(canDecide({ id: 'm2', role: 'owner' }, approval)).toBe(false);
  });
  it('does not offer a decided request', () => {
    expect(canDecide({ id: 'm1', role: 'owner' }, { ...approval, status: 'approved' })).toBe(false);
  });
});
