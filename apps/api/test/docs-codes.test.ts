// Every code table in docs/ is what the one code registry renders: a stale page fails here (`npm run docs`
// writes them afresh).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CODE_PAGES, renderCodeBlocks } from '../../../scripts/render-code-tables.ts';

describe('docs code tables', () => {
  it.each(CODE_PAGES)('%s holds the registry’s tables as rendered', (page) => {
    const text = readFileSync(new URL(`../../../${page}`, import.meta.url), 'utf8');
    expect(text).toContain('<!-- codes:begin');
    expect(text, `${page} is stale: run npm run docs`).toBe(renderCodeBlocks(text));
  });
});
