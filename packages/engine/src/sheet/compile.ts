// compileSheet: a sheet becomes the Colang it equals, that Colang goes through the one Colang front end
// into the rulebook, and the sheet's confirmations, order and checks become the catalogue overlay.
// A refusal lists every problem; nothing partial is ever returned.
import { lintRulebook } from '../colang/lint.ts';
import { parseColang } from '../colang/parse.ts';
import type { CatalogueOverlay, Rulebook, RulebookSourceMap, ToolDeclarations } from '../rulebook/types.ts';
import { OVERLAY_FORMAT } from '../rulebook/types.ts';
import { type Diagnostic, formatDiagnostic } from '../source/diagnostic.ts';
import { emitColang } from './emit-colang.ts';
import { type LintCatalogue, lintSheet } from './lint.ts';
import { readSheet, type Sheet, type SheetCache } from './read-sheet.ts';

export type SheetCompileResult =
  | {
      ok: true;
      colang: string;
      rulebook: Rulebook;
      sourceMap: RulebookSourceMap;
      overlay: CatalogueOverlay;
      lints: Diagnostic[];
      sheet: Sheet;
    }
  | { ok: false; problems: Diagnostic[] };

/**
 * Compiles a rule sheet; with a catalogue, also lints it.
 *
 * @example
 * const r = compileSheet('rules:\n  - action: delete_customer\n    never: true\n');
 * r.ok && r.colang // '... define flow delete_customer\n  refuse\n'
 */
export function compileSheet(text: string, catalogue?: LintCatalogue, source = 'rules.yaml', cache?: SheetCache): SheetCompileResult {
  const read = readSheet(text, cache);
  if (!read.ok) return read;
  const sheet = read.sheet;
  const colang = emitColang(sheet, source);
  const parsed = parseColang(colang);
  if (!parsed.ok) {
    // The emitter made Colang its own front end refuses: a bug, reported rather than approximated.
    throw new Error(`the sheet compiled to Colang the front end refused: ${parsed.problems.map((p) => p.message).join('; ')}`);
  }
  const sourceMap: RulebookSourceMap = { file: source, flows: {}, contexts: {} };
  for (const rule of sheet.rules) {
    if (parsed.sourceMap.flows[rule.action]) sourceMap.flows[rule.action] = { line: rule.line };
  }
  return {
    ok: true,
    colang,
    rulebook: parsed.rulebook,
    sourceMap,
    overlay: overlayOf(sheet),
    lints: catalogue ? lintSheet(sheet, catalogue) : [],
    sheet,
  };
}

function overlayOf(sheet: Sheet): CatalogueOverlay {
  const tools: Record<string, ToolDeclarations> = {};
  for (const rule of [...sheet.rules].sort((a, b) => (a.action < b.action ? -1 : a.action > b.action ? 1 : 0))) {
    const d: ToolDeclarations = {};
    if (rule.confirmation !== undefined) d.confirmation = rule.confirmation;
    if (rule.after) d.after = rule.after;
    if (rule.not_after) d.not_after = rule.not_after;
    if (rule.at_most !== undefined) d.at_most = rule.at_most;
    if (rule.checks) d.checks = rule.checks;
    if (Object.keys(d).length > 0) tools[rule.action] = d;
  }
  return { format: OVERLAY_FORMAT, tools };
}

/**
 * Formats a refusal line as the CLI prints it (docs/rule-sheets.md, "Refused, never approximated"): the one
 * diagnostic line, `FILE:LINE:COLUMN: CODE: message`, and that nothing was changed.
 */
export function formatRefusal(file: string, problem: Diagnostic, what: 'sheet' | 'policy' = 'sheet'): string {
  return `${formatDiagnostic(file, problem)}. The ${what} was not compiled; nothing was changed.`;
}

/** Formats a lint line: the one diagnostic line, marked `(warning)`. */
export function formatLint(file: string, lint: Diagnostic): string {
  return formatDiagnostic(file, lint);
}

/** Which front end a file goes through: `.yaml`/`.yml` sheets, `.co` Colang. */
export function rulesKindOf(file: string): 'sheet' | 'colang' | undefined {
  if (/\.ya?ml$/i.test(file)) return 'sheet';
  if (/\.co$/i.test(file)) return 'colang';
  return undefined;
}

export type RulesCompileResult =
  | {
      ok: true;
      kind: 'sheet' | 'colang';
      /** The Colang a sheet compiled to (a .co file's own text is not repeated). */
      colang?: string;
      rulebook: Rulebook;
      sourceMap: RulebookSourceMap;
      overlay: CatalogueOverlay;
      lints: Diagnostic[];
    }
  | { ok: false; kind: 'sheet' | 'colang'; problems: Diagnostic[] };

/**
 * Compiles a sheet or a Colang policy the same way the CLI, the API and `verify` do.
 *
 * @example
 * compileRules(text, 'colang', catalogue, 'colang/shop.co')
 */
export function compileRules(text: string, kind: 'sheet' | 'colang', catalogue?: LintCatalogue, source?: string): RulesCompileResult {
  if (kind === 'sheet') {
    const r = compileSheet(text, catalogue, source);
    if (!r.ok) return { ok: false, kind, problems: r.problems };
    return { ok: true, kind, colang: r.colang, rulebook: r.rulebook, sourceMap: r.sourceMap, overlay: r.overlay, lints: r.lints };
  }
  const r = parseColang(text, source);
  if (!r.ok) return { ok: false, kind, problems: r.problems };
  return {
    ok: true,
    kind,
    rulebook: r.rulebook,
    sourceMap: r.sourceMap,
    overlay: { format: OVERLAY_FORMAT, tools: {} },
    lints: catalogue ? lintRulebook(r.rulebook, r.sourceMap, catalogue) : [],
  };
}
