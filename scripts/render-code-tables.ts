// Renders the policy code registry as Markdown tables, one per kind.
import { type CodeEntry, POLICY_CODES } from '../packages/engine/src/policy/codes.ts';

const HEADINGS: Record<CodeEntry['kind'], string> = {
  input: 'Reading the text (the CLI exits 2)',
  error: 'Validation errors (the document is invalid; the CLI exits 1)',
  warning: 'Warnings (advice; the document stays valid)',
  decision: 'Decision codes (the `code` of a decision)',
  template: 'Template parameters (the CLI exits 1)',
};

export function renderCodeTables(): string {
  let out = '';
  for (const kind of Object.keys(HEADINGS) as CodeEntry['kind'][]) {
    out += `\n### ${HEADINGS[kind]}\n\n| code | when |\n| --- | --- |\n`;
    for (const [code, entry] of Object.entries(POLICY_CODES) as [string, CodeEntry][]) {
      if (entry.kind === kind) out += `| \`${code}\` | ${entry.when.replace(/\|/g, '\\|')} |\n`;
    }
  }
  return `${out}\n`;
}
