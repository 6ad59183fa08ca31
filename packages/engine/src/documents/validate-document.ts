// validateDocument: the one validator the edit seam and the console call for every kind of document.
// Problems refuse the text; lints and warnings are advice, returned apart (docs/documents.md, "Validation").
import { lintRulebook } from '../colang/lint.ts';
import { parseColang } from '../colang/parse.ts';
import { readExampleSuite } from '../policy/policy-tests.ts';
import { validatePolicy } from '../policy/validate.ts';
import { readCatalogue } from '../rulebook/catalogue.ts';
import { compileSheet } from '../sheet/compile.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { readJsonText } from '../source/json-text.ts';
import { placeProblems } from '../source/place-problems.ts';
import { readAgent } from './agent.ts';
import { type DocumentKind, documentKindOf } from './kinds.ts';
import { type PinContext, readRuleset } from './ruleset.ts';
import { readSettings } from './settings.ts';
import type { DocumentContext } from './types.ts';
import { readUpstreams } from './upstreams.ts';

export interface DocumentValidation {
  kind: DocumentKind | undefined;
  /** What refuses the text: each with a line where the text gives one, and a path where it has one. */
  problems: Diagnostic[];
  /** Advice that never refuses: sheet and Colang lints against a catalogue, policy warnings against tools. */
  lints: Diagnostic[];
}

/**
 * Validates a document's text by the kind its id names.
 *
 * @example
 * validateDocument('sheets/shop.rules.yaml', 'rules:\n  - action: refund_card\n    requries: [x]\n')
 * // { kind: 'sheet', problems: [{ code: 'rule_sheet_unsupported', range: { start: { line: 3, ... } }, ... }], lints: [] }
 * validateDocument('notes.txt', 'hello') // { kind: undefined, problems: [{ code: 'DOCUMENT_KIND_UNKNOWN', ... }], lints: [] }
 */
export function validateDocument(id: string, text: string, context: DocumentContext = {}): DocumentValidation {
  const kind = documentKindOf(id);
  if (kind === undefined) {
    return {
      kind,
      problems: [
        {
          code: 'DOCUMENT_KIND_UNKNOWN',
          severity: 'error',
          path: '',
          message: `${id} names no kind of document; use catalogue.yaml, catalogues/*.yaml, sheets/*.rules.yaml, colang/*.co, policies/*.policy.json, policies/*.examples.json, rulesets/*.ruleset.json, agents/*.agent.yaml, settings.yaml or mcp/servers.yaml`,
        },
      ],
      lints: [],
    };
  }
  switch (kind) {
    case 'catalogue': {
      const r = readCatalogue(text, id.endsWith('.json') ? 'json' : 'yaml', context.upstreams ? { upstreams: context.upstreams } : {});
      return { kind, problems: r.problems, lints: [] };
    }
    case 'sheet': {
      const r = compileSheet(text, context.catalogue, id);
      return r.ok ? { kind, problems: [], lints: r.lints } : { kind, problems: r.problems, lints: [] };
    }
    case 'colang': {
      const r = parseColang(text, id);
      if (!r.ok) return { kind, problems: r.problems, lints: [] };
      return { kind, problems: [], lints: context.catalogue ? lintRulebook(r.rulebook, r.sourceMap, context.catalogue) : [] };
    }
    case 'policy':
      return validatePolicyText(text, context);
    case 'examples':
      return { kind, problems: exampleSuiteProblems(text), lints: [] };
    case 'ruleset':
      return { kind, problems: readRuleset(text, pinContextOf(context)).problems, lints: [] };
    case 'agent':
      return { kind, problems: readAgent(text, context).problems, lints: [] };
    case 'settings':
      return { kind, problems: readSettings(text, context).problems, lints: [] };
    case 'upstreams':
      return { kind, problems: readUpstreams(text).problems, lints: [] };
  }
}

/** The pin checks' view of the store: the context's own, or one told by `exists` alone (statuses unknown, so active). */
function pinContextOf(context: DocumentContext): PinContext | undefined {
  if (context.rule) return { rule: context.rule };
  const exists = context.exists;
  if (!exists) return undefined;
  return { rule: (id) => (exists(id) ? { status: 'active', hasVersion: (version) => exists(id, version) } : undefined) };
}

/** A suite's problems as `tollgate policy test --examples` reports them; unreadable text is the whole document's (path ''). */
function exampleSuiteProblems(text: string): Diagnostic[] {
  const read = readExampleSuite(text);
  if (read.ok) return [];
  return read.problems.map((p) => (p.path === undefined ? { ...p, path: '' } : p));
}

function validatePolicyText(text: string, context: DocumentContext): DocumentValidation {
  const read = readJsonText(text);
  if (!read.ok) return { kind: 'policy', problems: [{ ...read.diagnostic, path: '' }], lints: [] };
  const options = { ...(context.members ? { members: context.members } : {}), ...(context.tools ? { tools: context.tools } : {}) };
  const result = validatePolicy(read.value, options);
  return {
    kind: 'policy',
    problems: placeProblems([...read.diagnostics, ...result.errors], read.rangeOf),
    lints: placeProblems(result.warnings, read.rangeOf),
  };
}
