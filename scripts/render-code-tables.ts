// Renders the one code registry (packages/engine/src/codes/index.ts) as the Markdown code tables of docs/:
// a block between `<!-- codes:begin DOMAIN -->` and `<!-- codes:end -->` holds the table of that domain
// (policy@1's, with no domain named, is grouped by kind). scripts/docs-codes.ts writes them; a test fails
// when a page's table is not what the registry renders.
import { type CodeDomain, codesIn, type PolicyKind } from '../packages/engine/src/codes/index.ts';

const POLICY_HEADINGS: Record<PolicyKind, string> = {
  input: 'Reading the text (the CLI exits 2)',
  error: 'Validation errors (the document is invalid; the CLI exits 1)',
  warning: 'Warnings (advice; the document stays valid)',
  decision: 'Decision codes (the `code` of a decision)',
  template: 'Template parameters (the CLI exits 1)',
};

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** policy@1's tables, one per kind. */
export function renderCodeTables(): string {
  let out = '';
  const policy = codesIn('policy');
  for (const kind of Object.keys(POLICY_HEADINGS) as PolicyKind[]) {
    out += `\n### ${POLICY_HEADINGS[kind]}\n\n| code | when |\n| --- | --- |\n`;
    for (const c of policy) if (c.policyKind === kind) out += `| \`${c.code}\` | ${cell(c.when.policy as string)} |\n`;
  }
  return `${out}\n`;
}

/** One domain's table: code, severity and when it occurs there. */
export function renderDomainTable(domain: CodeDomain): string {
  let out = '\n| code | severity | when |\n| --- | --- | --- |\n';
  for (const c of codesIn(domain)) out += `| \`${c.code}\` | ${c.severity} | ${cell(c.when[domain] as string)} |\n`;
  return `${out}\n`;
}

const BLOCK = /<!-- codes:begin(?: ([a-z-]+))? -->[\s\S]*?<!-- codes:end -->/g;

/** A page with every code block rendered afresh from the registry. */
export function renderCodeBlocks(page: string): string {
  return page.replace(BLOCK, (_all, domain: string | undefined) => {
    const table = domain === undefined ? renderCodeTables() : renderDomainTable(domain as CodeDomain);
    return `<!-- codes:begin${domain === undefined ? '' : ` ${domain}`} -->\n${table}<!-- codes:end -->`;
  });
}

/** The docs pages that hold code tables. */
export const CODE_PAGES = [
  'docs/policy.md',
  'docs/rule-sheets.md',
  'docs/colang.md',
  'docs/catalogue.md',
  'docs/documents.md',
  'docs/mcp.md',
  'docs/cli.md',
] as const;
