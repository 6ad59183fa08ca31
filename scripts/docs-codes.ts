// npm run docs: rewrites the code tables of docs/policy.md from the one registry (POLICY_CODES).
import { readFileSync, writeFileSync } from 'node:fs';
import { renderCodeTables } from './render-code-tables.ts';

const file = new URL('../docs/policy.md', import.meta.url);
const text = readFileSync(file, 'utf8');
const begin = '<!-- codes:begin -->';
const end = '<!-- codes:end -->';
const from = text.indexOf(begin);
const to = text.indexOf(end);
if (from < 0 || to < from) throw new Error(`docs/policy.md lacks the ${begin} ... ${end} markers`);
writeFileSync(file, `${text.slice(0, from + begin.length)}\n${renderCodeTables()}${text.slice(to)}`);
