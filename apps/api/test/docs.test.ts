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

describe('examples/', () => {
  it('holds the support-refunds draft as the template makes it today', async () => {
    const { createFromTemplate } = await import('@tollgate/engine/policy');
    const draft = createFromTemplate('support-refunds');
    if (!draft.ok) throw new Error('the template refused its defaults');
    const read = (name: string) => JSON.parse(readFileSync(new URL(`../../../examples/${name}`, import.meta.url), 'utf8'));
    expect(read('refunds.policy.json')).toEqual(draft.document);
    expect(read('refunds.examples.json')).toEqual(draft.examples);
  });
});
