// The shape of one entry of the code registry (index.ts).

/** Where a code occurs: the reader, stage or layer that answers it. */
export type CodeDomain =
  | 'policy'
  | 'catalogue'
  | 'document'
  | 'sheet'
  | 'lint'
  | 'colang'
  | 'check'
  | 'tool-check'
  | 'gate'
  | 'mcp'
  | 'mcp-import'
  | 'store'
  | 'api'
  | 'cli';

/** The reference documents Tollgate implements that name codes. */
export type SeedDocument = 'rule-sheets' | 'policy-documents';

/** How policy@1's codes group in docs/policy.md (and how the CLI exits on them). */
export type PolicyKind = 'input' | 'error' | 'warning' | 'decision' | 'template';

export interface CodeEntry {
  /** The severity of a Diagnostic carrying the code (decision codes: 'error', the call is not run as asked). */
  severity: 'error' | 'warning' | 'info';
  /** One line: what the code means wherever it occurs. */
  meaning: string;
  /** When it occurs, by domain: the domains are where it occurs. */
  in: Partial<Record<CodeDomain, string>>;
  policyKind?: PolicyKind;
  /**
   * The reference document that names this code (docs/documents.md, "How codes are spelled"): the code is
   * spelled exactly as that document spells it, on every path, and never renamed.
   */
  seed?: SeedDocument;
  /** The HTTP status an API error with this code answers. */
  status?: number;
}
