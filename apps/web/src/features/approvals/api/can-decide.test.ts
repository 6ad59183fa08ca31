// Unit tests of who is offered the approval buttons, and the reason given to everyone else.
import { describe, expect, it } from 'vitest';
import { canDecide, whyCannotDecide } from './can-decide.ts';
import type { Approval } from './types.ts';

const approval = {
  status: 'pending',
  approvers: ['m1', 'm3'],
  eligible_approvers: [
    { id: 'm1', name: 'alice' },
    { id: 'm3', name: 'bob' },
  ],
} as Approval;

describe('canDecide', () => {
  it('offers an eligible approver the buttons', () => {
    expect(canDecide({ id: 'm1', role: 'approver' }, approval)).toBe(true);
    expect(whyCannotDecide({ id: 'm1', role: 'approver' }, approval)).toBeNull();
  });
  it('does not offer a viewer, nor a member not listed', () => {
    expect(canDecide({ id: 'm1', role: 'viewer' }, approval)).toBe(false);
    expect(canDecide({ id: 'm2', role: 'owner' }, approval)).toBe(false);
  });
  it('does not offer a listed approver who can no longer decide (not among the eligible)', () => {
    expect(canDecide({ id: 'm3', role: 'approver' }, { ...approval, eligible_approvers: [{ id: 'm1', name: 'alice' }] })).toBe(false);
  });
  it('does not offer a decided request, and gives no reason for one', () => {
    expect(canDecide({ id: 'm1', role: 'owner' }, { ...approval, status: 'approved' })).toBe(false);
    expect(whyCannotDecide({ id: 'm2', role: 'viewer' }, { ...approval, status: 'approved' })).toBeNull();
  });
});

describe('whyCannotDecide', () => {
  it("names who can and the viewer's role", () => {
    expect(whyCannotDecide({ id: 'm2', role: 'viewer' }, approval)).toBe('Only alice and bob can approve this call: your role is viewer.');
    expect(whyCannotDecide({ id: 'm2', role: 'developer' }, approval)).toBe(
      'Only alice and bob can approve this call: your role is developer.',
    );
  });
  it('tells an approver of another request that they are not among its approvers', () => {
    expect(whyCannotDecide({ id: 'm2', role: 'owner' }, approval)).toBe(
      'Only alice and bob can approve this call: you are not one of the approvers it was held for.',
    );
  });
  it('says when no one can approve any more', () => {
    expect(whyCannotDecide({ id: 'm2', role: 'viewer' }, { ...approval, eligible_approvers: [] })).toMatch(
      /^No member can approve this call now/,
    );
  });
});
