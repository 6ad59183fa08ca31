// The history route: parsed from and written to one encoded segment.
import { describe, expect, it } from 'vitest';
import { hrefOf, parseRoute } from './router.ts';

describe('the history route', () => {
  it('reads a document id from its encoded segment', () => {
    expect(parseRoute('#/history/policies%2Frefunds.policy.json')).toEqual({ page: 'history', document: 'policies/refunds.policy.json' });
  });
  it('round-trips through hrefOf', () => {
    const route = { page: 'history', document: 'sheets/a b.yaml' } as const;
    expect(parseRoute(hrefOf(route))).toEqual(route);
  });
  it('falls back to the documents list without an id', () => {
    expect(parseRoute('#/history')).toEqual({ page: 'documents', document: null });
  });
});
