// documentKindOf: every kind's path patterns, and the paths that name no kind.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_KINDS, documentKindOf, exampleSuiteIdOf, isDocumentKind } from './kinds.ts';

describe('documentKindOf', () => {
  it.each([
    ['catalogue.yaml', 'catalogue'],
    ['catalogue.yml', 'catalogue'],
    ['catalogue.json', 'catalogue'],
    ['catalogues/shop.yaml', 'catalogue'],
    ['catalogues/shop.yml', 'catalogue'],
    ['catalogues/shop.json', 'catalogue'],
    ['sheets/shop.rules.yaml', 'sheet'],
    ['sheets/shop.rules.yml', 'sheet'],
    ['colang/shop.co', 'colang'],
    ['policies/refunds.policy.json', 'policy'],
    ['policies/refunds.examples.json', 'examples'],
    ['policies/a.policy.examples.json', 'examples'],
    ['rulesets/support.ruleset.json', 'ruleset'],
    ['agents/support.agent.yaml', 'agent'],
    ['settings.yaml', 'settings'],
  ])('reads %s as a %s', (id, kind) => {
    expect(documentKindOf(id)).toBe(kind);
  });

  it.each([
    'notes.txt',
    'settings.yml',
    'catalogue.yaml.bak',
    'catalogues/.yaml',
    'catalogues/a/b.yaml',
    'sheets/shop.yaml',
    'sheets/.rules.yaml',
    'sheets/a/b.rules.yaml',
    'colang/.co',
    'colang/shop.colang',
    'policies/refunds.json',
    'policies/refunds.policy.yaml',
    'policies/.examples.json',
    'policies/refunds.examples.yaml',
    'examples/refunds.examples.json',
    'policies/a/b.examples.json',
    'rulesets/support.json',
    'agents/support.yaml',
    'agents/support.agent.yml',
    'Settings.yaml',
    'a/settings.yaml',
    '/settings.yaml',
    'policies\\x.policy.json',
    '',
  ])('names no kind for %j', (id) => {
    expect(documentKindOf(id)).toBeUndefined();
  });

  it('never throws and gives a listed kind or undefined for any string', () => {
    fc.assert(
      fc.property(fc.string(), (id) => {
        const kind = documentKindOf(id);
        expect(kind === undefined || DOCUMENT_KINDS.includes(kind)).toBe(true);
      }),
    );
  });

  it('names the suite beside a policy, and of a policy only', () => {
    expect(exampleSuiteIdOf('policies/refunds.policy.json')).toBe('policies/refunds.examples.json');
    expect(documentKindOf(exampleSuiteIdOf('policies/a.policy.policy.json') ?? '')).toBe('examples');
    expect(exampleSuiteIdOf('policies/refunds.examples.json')).toBeUndefined();
    expect(exampleSuiteIdOf('sheets/shop.rules.yaml')).toBeUndefined();
  });

  it('isDocumentKind accepts the eight kinds only', () => {
    for (const kind of DOCUMENT_KINDS) expect(isDocumentKind(kind)).toBe(true);
    expect(isDocumentKind('intent')).toBe(false);
  });
});
