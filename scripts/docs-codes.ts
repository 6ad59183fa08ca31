// npm run docs: rewrites every code table of docs/ from the one code registry (scripts/render-code-tables.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { CODE_PAGES, renderCodeBlocks } from './render-code-tables.ts';

for (const page of CODE_PAGES) {
  const file = new URL(`../${page}`, import.meta.url);
  const text = readFileSync(file, 'utf8');
  if (!text.includes('<!-- codes:begin')) throw new Error(`${page} lacks a <!-- codes:begin ... --> ... <!-- codes:end --> block`);
  writeFileSync(file, renderCodeBlocks(text));
}
