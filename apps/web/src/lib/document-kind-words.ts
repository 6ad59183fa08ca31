// A document's kind in words, for the page heading that names it ("Policy policies/refunds.policy.json").
import { type DocumentKind, documentKindOf } from '@tollgate/engine/documents';

const WORDS: Record<DocumentKind, string> = {
  catalogue: 'Catalogue',
  sheet: 'Rule sheet',
  colang: 'Colang policy',
  policy: 'Policy',
  examples: 'Example suite',
  ruleset: 'Rule set',
  agent: 'Agent',
  settings: 'Settings',
  upstreams: 'Upstreams',
};

/** Example: `documentKindWords('sheets/support.rules.yaml')` is `'Rule sheet'`; a path of no kind is `'Document'`. */
export function documentKindWords(id: string): string {
  const kind = documentKindOf(id);
  return kind === undefined ? 'Document' : WORDS[kind];
}
