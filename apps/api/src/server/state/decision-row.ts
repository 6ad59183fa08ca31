// One recorded gate decision as a row of the decisions table, and the statement that writes it, shared by
// the decision log (decision-log.ts), its writer thread (decision-writer.ts) and the readers (decisions.ts).

export interface DecisionRow {
  call_id: string;
  agent: string;
  tool: string;
  action: string | null;
  amount: string | null;
  currency: string | null;
  decision: string;
  rule: string | null;
  code: string | null;
  /** JSON: {document id: sequence}. */
  versions: string;
  /** JSON, or null once the retention period has passed. */
  arguments: string | null;
  arguments_digest: string;
  session: string | null;
  created_at: string;
  /** JSON: the rule files' shadow differences on this call ([{document, rule, running, candidate}]); null when none. */
  shadow_differences?: string | null;
  /** How the call arrived: the gate route ('http') or the MCP gateway ('mcp'); null in rows older than the column. */
  via?: CallVia | null;
}

/** How a call reached the gate. */
export type CallVia = 'http' | 'mcp';

export const COLUMNS = [
  'call_id',
  'agent',
  'tool',
  'action',
  'amount',
  'currency',
  'decision',
  'rule',
  'code',
  'versions',
  'arguments',
  'arguments_digest',
  'session',
  'created_at',
  'shadow_differences',
  'via',
] as const satisfies readonly (keyof DecisionRow)[];
export const INSERT = `INSERT INTO decisions (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`;
/** Rows the writer thread may have written already are written here without their duplicates. */
export const INSERT_MISSING = INSERT.replace('INSERT', 'INSERT OR IGNORE');

/** A row as its statement's values, in COLUMNS order (positional binding, and cheap to post). */
export function valuesOf(row: DecisionRow): unknown[] {
  return [
    row.call_id,
    row.agent,
    row.tool,
    row.action,
    row.amount,
    row.currency,
    row.decision,
    row.rule,
    row.code,
    row.versions,
    row.arguments,
    row.arguments_digest,
    row.session,
    row.created_at,
    row.shadow_differences ?? null,
    row.via ?? null,
  ];
}
