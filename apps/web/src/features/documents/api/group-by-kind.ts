// Groups documents by kind in the order docs/documents.md lists them ("Kinds").
import type { DocumentSummary } from './types.ts';

export const KIND_ORDER = ['catalogue', 'sheet', 'colang', 'policy', 'examples', 'ruleset', 'agent', 'settings', 'upstreams'] as const;

export interface KindGroup {
  kind: string;
  documents: DocumentSummary[];
}

/** Groups by kind, known kinds first in design order, then any others, then unknown (null) as "other". */
export function groupByKind(documents: DocumentSummary[]): KindGroup[] {
  const groups = new Map<string, DocumentSummary[]>();
  for (const document of documents) {
    const kind = document.kind ?? 'other';
    groups.set(kind, [...(groups.get(kind) ?? []), document]);
  }
  const rank = (kind: string) => {
    const index = (KIND_ORDER as readonly string[]).indexOf(kind);
    return index === -1 ? KIND_ORDER.length : index;
  };
  return [...groups.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([kind, docs]) => ({ kind, documents: docs.sort((x, y) => x.id.localeCompare(y.id)) }));
}
