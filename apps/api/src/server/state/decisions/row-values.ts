// A decision row, and the row as its statement's values and back (model.ts re-exports them): apart from the model so
// the decision log's writer thread, which reads each batch's rows from their values to chain them, loads nothing
// more. Pure.
export interface DecisionRow {
  call_id: string;
  agent: string;
  tool: string;
  action: string | null;
  amount: string | null;
  currency: string | null;
  decision: string;
  rule: string | null;
  /** A plain string, not the registry's Code: a row is read back as stored, by whatever version wrote it. */
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

/** The row whose values (valuesOf) start at `offset` of `values`: what the log's writer thread reads a batch as. */
export function rowOfValues(values: readonly unknown[], offset: number): DecisionRow {
  const v = (i: number) => values[offset + i] as never;
  return {
    call_id: v(0),
    agent: v(1),
    tool: v(2),
    action: v(3),
    amount: v(4),
    currency: v(5),
    decision: v(6),
    rule: v(7),
    code: v(8),
    versions: v(9),
    arguments: v(10),
    arguments_digest: v(11),
    session: v(12),
    created_at: v(13),
    shadow_differences: v(14),
    via: v(15),
  };
}

/** A row as its statement's values, in COLUMNS order (positional binding, and cheap to post to a thread). */
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
