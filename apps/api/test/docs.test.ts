// The docs stay true to the code: every registered code is documented in docs/policy.md.
import { readFileSync } from 'node:fs';
import { POLICY_CODES } from '@tollgate/engine/policy';
import { describe, expect, it } from 'vitest';

const docs = readFileSync(new URL('../../../docs/policy.md', import.meta.url), 'utf8');

describe('docs/policy.md', () => {
  it('documents every code of the registry', () => {
    const missing = Object.keys(POLICY_CODES).filter((code) => !docs.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
