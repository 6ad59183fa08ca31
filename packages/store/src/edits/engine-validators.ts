// The validators and impact analysers of the engine, one per document kind, as the edit seam and the
// folder store's watcher use them.
import {
  analyzeImpact,
  DOCUMENT_KINDS,
  type DocumentContext,
  type DocumentKind,
  documentKindOf,
  formatDiagnostic,
  type ImpactContext,
  validateDocument,
} from '@tollgate/engine';
import type { DocumentValidator } from './edit-types.ts';

/**
 * One DocumentValidator per kind (catalogue, sheet, colang, policy, examples, ruleset, agent, settings).
 *
 * @example
 * new EditSeam({ store, kindOf: documentKindOf, validators: engineValidators() })
 */
export function engineValidators(
  context: DocumentContext = {},
  impactContext: ImpactContext = {},
): Record<DocumentKind, DocumentValidator> {
  const validators = {} as Record<DocumentKind, DocumentValidator>;
  for (const kind of DOCUMENT_KINDS) {
    validators[kind] = {
      validate: (id, text) => validateDocument(id, text, context).problems,
      impact: (_id, runningText, newText) => analyzeImpact(kind, runningText, newText, impactContext),
    };
  }
  return validators;
}

/**
 * Whether a working copy loads, for FolderDocumentStore's `validate` option: its problems as the lines a version
 * file keeps (`problems: string[]`, docs/store.md, "Problems kept with a version"), empty when it loads.
 */
export function loadProblems(id: string, text: string): string[] {
  if (documentKindOf(id) === undefined) return [];
  return validateDocument(id, text).problems.map((p) => formatDiagnostic(id, p));
}
