// A quorum in review: the revision a document that names one is, how it changes the effect two versions are compared
// by, and its direction: a larger quorum narrows, a smaller one widens, more approvers with a larger quorum changes.
import { describe, expect, it } from 'vitest';
import { languageRefusal } from '../gate/prepare-gate.ts';
import { compilePolicy } from '../policy/compile.ts';
import { policyRevision } from '../policy/revision.ts';
import { describeOutcome, directionOf, effectKey, type Outcome } from './outcome.ts';

const held = (roles: string[], quorum?: number): Outcome => ({
  decision: 'require_approval',
  rule: 'r',
  code: null,
  approvers: { roles, users: [] },
  ...(quorum === undefined ? {} : { quorum }),
});

describe('a quorum in review', () => {
  it('makes a document language revision 4, whatever else it holds', () => {
    const rule = { id: 'r', actions: ['a.b'], effect: 'require_approval', approvers: { roles: ['owner'] } };
    expect(policyRevision({ rules: [rule] })).toBe(1);
    expect(policyRevision({ rules: [{ ...rule, when: [] }] })).toBe(3);
    expect(
      policyRevision({
        rules: [
          { ...rule, approvers: { roles: ['owner'], quorum: 2 } },
          { ...rule, when: [] },
        ],
      }),
    ).toBe(4);
    expect(
      policyRevision({
        rules: [
          { ...rule, when: [] },
          { ...rule, description: 'd' },
        ],
      }),
    ).toBe(3);
  });

  it('is held back by a node that decides revision 3: the call is denied LANGUAGE_REVISION_UNSUPPORTED', () => {
    const compiled = compilePolicy({
      schema: 'tollgate/policy@1',
      default: 'deny',
      rules: [{ id: 'r', actions: ['a.b'], effect: 'require_approval', approvers: { roles: ['owner', 'admin'], quorum: 2 } }],
    });
    if (!compiled.ok) throw new Error('the policy compiles');
    const policies = [{ document: 'policies/p.policy.json', sequence: 1, policy: compiled.policy }];
    expect(languageRefusal({ policies, languageRevision: 3 })).toMatchObject({ decision: 'deny', code: 'LANGUAGE_REVISION_UNSUPPORTED' });
    expect(languageRefusal({ policies, languageRevision: 4 })).toBeUndefined();
  });

  it('tells two held outcomes apart by their quorum', () => {
    expect(effectKey(held(['owner'], 2))).not.toBe(effectKey(held(['owner'])));
    expect(describeOutcome(held(['admin', 'owner'], 2))).toBe('require approval by roles admin, owner (2 of them) (r)');
  });

  it('a larger quorum narrows, a smaller one widens, more approvers with a larger quorum changes', () => {
    expect(directionOf(held(['owner']), held(['owner'], 2))).toBe('narrows');
    expect(directionOf(held(['owner'], 3), held(['owner'], 2))).toBe('widens');
    expect(directionOf(held(['owner'], 2), held(['admin', 'owner'], 2))).toBe('widens');
    expect(directionOf(held(['owner']), held(['admin', 'owner'], 2))).toBe('changes');
    expect(directionOf(held(['admin', 'owner'], 2), held(['owner'], 3))).toBe('narrows');
  });
});
