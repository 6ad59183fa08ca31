// Every code `tollgate store check` reports is in the one code registry, in the store's family (UPPER_SNAKE),
// so docs' tables list it and a script can rely on its spelling (docs/documents.md, "How codes are spelled").
import { CODES } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';
import { FINDING_CODES } from '../src/store-check.ts';

describe('store findings', () => {
  it('are each a registered store code, spelled UPPER_SNAKE', () => {
    for (const code of FINDING_CODES) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/);
      expect(CODES.get(code)?.domains, code).toContain('store');
    }
  });
});
