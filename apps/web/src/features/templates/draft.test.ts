// buildDraft and the draft's name: engine-validated parameters, problems by parameter, the new id.
import { exampleSuiteIdOf, validateDocument } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { buildDraft, checkDraftName, draftId } from './draft.ts';

describe('buildDraft', () => {
  it('builds the document text and its examples from the parameters', () => {
    const draft = buildDraft('support-refunds', { auto_limit: '50.00' });
    if (!draft.ok) throw new Error('expected a draft');
    const document = JSON.parse(draft.text);
    expect(document).toMatchObject({ schema: 'tollgate/policy@1', default: 'deny' });
    expect(JSON.stringify(document)).toContain('"lte":"50"');
    expect(draft.text.endsWith('}\n')).toBe(true);
    expect(JSON.parse(draft.examples).examples.length).toBeGreaterThan(0);
  });

  it("gives examples the edit seam stores as the new policy's suite document", () => {
    const draft = buildDraft('support-refunds', { auto_limit: '50.00' });
    if (!draft.ok) throw new Error('expected a draft');
    const suiteId = exampleSuiteIdOf(draftId('refunds'));
    expect(suiteId).toBe('policies/refunds.examples.json');
    expect(validateDocument(suiteId ?? '', draft.examples)).toEqual({ kind: 'examples', problems: [], lints: [] });
  });

  it('lists problems by parameter, and order problems against the parameter at fault', () => {
    const draft = buildDraft('support-refunds', { currency: 'usd', auto_limit: '5000', approval_limit: '1000' });
    if (draft.ok) throw new Error('expected problems');
    expect(Object.keys(draft.byParameter).sort()).toEqual(expect.arrayContaining(['currency']));
    expect(draft.byParameter.currency?.[0]).toMatch(/not a currency/);
    expect(Object.values(draft.byParameter).flat().join(' ')).toMatch(/below|lower|less/);
  });

  it('reports an unknown template in general', () => {
    const draft = buildDraft('no-such-template', {});
    expect(draft).toMatchObject({ ok: false, general: [expect.stringMatching(/no template "no-such-template"/)] });
  });
});

describe('the draft name', () => {
  it('makes a policy id and refuses names that would not be one', () => {
    expect(draftId('refunds-eu')).toBe('policies/refunds-eu.policy.json');
    expect(checkDraftName('refunds-eu')).toBeNull();
    expect(checkDraftName('Refunds')).toMatch(/lowercase/);
    expect(checkDraftName('a/b')).toMatch(/lowercase/);
    expect(checkDraftName('')).toMatch(/lowercase/);
  });
});
