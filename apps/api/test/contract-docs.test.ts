// docs/api.md carries the API error-code table rendered from API_CODES (run npm run docs to refresh it).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODES_BEGIN, CODES_END, renderCodeTable } from '../../../scripts/docs-api.ts';

const docs = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

describe('docs/api.md', () => {
  it('carries the API error-code table of the registry', () => {
    expect(docs).toContain(`${CODES_BEGIN}\n${renderCodeTable()}${CODES_END}`);
    expect(renderCodeTable()).toContain('| `NO_ROUTE` | 404 |');
  });
});
