// The docs stay true to the code: docs/policy.md carries the code tables rendered from the registry.
import { readFileSync } from 'node:fs';
import { POLICY_CODES } from '@tollgate/engine/policy';
import { describe, expect, it } from 'vitest';
import { renderCodeTables } from '../../../scripts/render-code-tables.ts';

const docs = readFileSync(new URL('../../../docs/policy.md', import.meta.url), 'utf8');

describe('docs/policy.md', () => {
  it('carries the code tables of the current registry (run npm run docs to refresh them)', () => {
    expect(docs).toContain(`<!-- codes:begin -->\n${renderCodeTables()}<!-- codes:end -->`);
  });

  it('documents every code of the registry', () => {
    expect(Object.keys(POLICY_CODES).filter((code) => !docs.includes(`| \`${code}\` |`))).toEqual([]);
  });
});
