// The rules docs stay true to the code: docs/rule-sheets.md and docs/colang.md list every code of the
// sheet's and the Colang front end's registries, each in a `| code | when |` row.
import { readFileSync } from 'node:fs';
import { COLANG_CODES } from '@tollgate/engine/colang';
import { SHEET_CODES } from '@tollgate/engine/sheet';
import { describe, expect, it } from 'vitest';

const read = (name: string) => readFileSync(new URL(`../../../docs/${name}`, import.meta.url), 'utf8');

describe('the rules docs list every code', () => {
  it('docs/rule-sheets.md: every sheet code', () => {
    const docs = read('rule-sheets.md');
    expect(Object.keys(SHEET_CODES).filter((code) => !docs.includes(`| \`${code}\` |`))).toEqual([]);
  });

  it('docs/colang.md: every Colang code', () => {
    const docs = read('colang.md');
    expect(Object.keys(COLANG_CODES).filter((code) => !docs.includes(`| \`${code}\` |`))).toEqual([]);
  });
});
