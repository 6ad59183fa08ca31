// The rulebook IR: what a rule sheet and a Colang policy both lower to (docs/rule-sheets.md;
// docs/colang.md, "The IR"). Canonical JSON with no source positions; positions live in a source map beside it.

/** A literal a comparison reads: an exact decimal, a string or a boolean. */
export type Literal = { decimal: string } | { string: string } | { boolean: boolean };

export type ComparisonOp = 'gt' | 'lt' | 'gte' | 'lte' | 'eq';

/**
 * A guard expression. `context` reads a context the host sets; `arg` compares one of the checked
 * call's own arguments (a computed context: the host can never set it). Evaluated in three-valued
 * logic; a flow allows only where its guard is definitely true.
 */
export type Expr =
  | { context: string }
  | { arg: string; op: ComparisonOp; value: Literal }
  | { not: Expr }
  | { all: Expr[] }
  | { any: Expr[] };

/** One action's flow: refused outright, or allowed only where its guard holds (deny by default). */
export type Flow = { action: string; refuse: true } | { action: string; allow_when: Expr };

export const RULEBOOK_FORMAT = 'tollgate/rulebook@1';

/** The rulebook: one flow per governed action, sorted by action. Actions without a flow are not governed by it. */
export interface Rulebook {
  format: typeof RULEBOOK_FORMAT;
  flows: Flow[];
}

/** Where each flow and computed context came from (1-based lines of the Colang or sheet text). */
export interface RulebookSourceMap {
  file?: string;
  flows: Record<string, { line: number }>;
  contexts: Record<string, { line: number }>;
}

/** A comparison a check makes on the call (catalogue `checks`, sheet `check`). */
export type CheckOp = 'is' | 'is_not' | 'in' | 'not_in' | 'over' | 'under' | 'at_least' | 'at_most';

/**
 * A condition on the call: the argument `field` compared with a value, a list (for `in`/`not_in`),
 * or `from` what an earlier tool in the session returned (`{from: check_stock.in_stock}`).
 */
export interface Check {
  field: string;
  op: CheckOp;
  value?: Literal | Literal[];
  from?: { tool: string; field: string };
}

/** What a catalogue declares about a tool, or a sheet adds to it, beyond its binding. */
export interface ToolDeclarations {
  /** The words a person is asked; present when each call must be confirmed. */
  confirmation?: string;
  after?: string[];
  not_after?: string[];
  at_most?: number;
  checks?: Check[];
}

export const OVERLAY_FORMAT = 'tollgate/catalogue-overlay@1';

/** What a sheet adds to the catalogue: confirmations, order rules, at_most, checks, by tool name. */
export interface CatalogueOverlay {
  format: typeof OVERLAY_FORMAT;
  tools: Record<string, ToolDeclarations>;
}
