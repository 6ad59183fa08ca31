// Loads what the rules commands share: a sheet or Colang file compiled, and a catalogue.

import {
  type Catalogue,
  catalogueFormatOf,
  compileRules,
  formatRefusal,
  type RulesCompileResult,
  readCatalogue,
  rulesKindOf,
} from '@tollgate/engine';
import { CliError, type CliIo, refusedInput } from '../io.ts';
import { MAX_DOCUMENT_BYTES, readTextFile } from '../read-input.ts';

/** Reads a catalogue file (YAML or JSON by extension); one that does not load is unusable input (exit 2). */
export function loadCatalogue(file: string | undefined): Catalogue | undefined {
  if (file === undefined) return undefined;
  const format = catalogueFormatOf(file);
  if (!format) throw new CliError('USAGE', `${file}: a catalogue is .yaml, .yml or .json`);
  const result = readCatalogue(readTextFile(file, MAX_DOCUMENT_BYTES), format);
  if (!result.ok) throw refusedInput(file, result.problems);
  return result.catalogue;
}

/** Compiles a sheet (.yaml/.yml) or a Colang policy (.co). */
export function compileRulesFile(file: string, catalogue?: Catalogue): RulesCompileResult {
  const kind = rulesKindOf(file);
  if (!kind) throw new CliError('USAGE', `${file}: rules are a sheet (.yaml, .yml) or Colang (.co)`);
  return compileRules(readTextFile(file, MAX_DOCUMENT_BYTES), kind, catalogue, file);
}

/** Prints a refusal, one line per problem, as docs/rule-sheets.md shows it ("Refused, never approximated"). */
export function printRefusal(file: string, result: Extract<RulesCompileResult, { ok: false }>, io: CliIo): void {
  for (const p of result.problems) io.stderr.write(`${formatRefusal(file, p, result.kind === 'sheet' ? 'sheet' : 'policy')}\n`);
}
