// A document's whole history exactly as a store keeps it: its index (every version with its marks, the
// activation stack a revert pops, the next sequence) and each version's text. It moves a document between
// stores (`tollgate import`, `tollgate export`) without replaying saves, so sequences, authors, times and the
// revert target stay what they were. An export is checked before it is written anywhere: a text that is not
// the one its version's digest names, or an index that does not hold together, is refused as `damaged`.
import { byteLength, digestOf } from './digest.ts';
import type { DocumentIndex } from './document-index.ts';
import { type DocumentVersion, StoreError } from './types.ts';

export interface DocumentExport {
  id: string;
  index: DocumentIndex;
  /** Each version's text, by sequence. */
  texts: Record<string, string>;
}

/** A store that can hand over and take in a document's whole history (the folder, PostgreSQL and memory stores). */
export interface DocumentHistoryTransfer {
  /** The document's history as stored; `not_found` when it has none, `damaged` when a stored text is not whole. */
  exportDocument(id: string): Promise<DocumentExport>;
  /**
   * Stores an exported history as it is: refused as `conflict` when the id already has versions, as
   * `damaged` when the export does not hold together; nothing is written then.
   */
  importDocument(id: string, exported: DocumentExport): Promise<void>;
}

/** The index fields alone, copied (a folder index carries its id and file checksums besides). */
export function plainIndex(index: DocumentIndex): DocumentIndex {
  return structuredClone({ next: index.next, running: index.running, activations: index.activations, versions: index.versions });
}

/** Builds an export from an index and a text reader, checked as an import checks it. */
export function exportOf(id: string, index: DocumentIndex, textOf: (version: DocumentVersion) => string | undefined): DocumentExport {
  const texts: Record<string, string> = {};
  for (const version of index.versions) {
    const text = textOf(version);
    if (text === undefined) throw new StoreError('damaged', `${id} version ${version.sequence}: its text is missing from the store`);
    texts[version.sequence] = text;
  }
  const exported = { id, index: plainIndex(index), texts };
  checkExport(id, exported);
  return exported;
}

/**
 * Refuses an export that does not hold together, naming the first fault: the id, the index's shape, every
 * version's text against its digest and size, and the running version and activations against the versions.
 */
export function checkExport(id: string, exported: DocumentExport): void {
  const fault = exportFault(id, exported);
  if (fault !== undefined) throw new StoreError('damaged', `the export of ${id} ${fault}; nothing was written`);
}

function exportFault(id: string, exported: DocumentExport): string | undefined {
  if (exported === null || typeof exported !== 'object') return 'is not an object';
  if (exported.id !== id) return `names another document (${JSON.stringify(exported.id)})`;
  const { index, texts } = exported;
  if (index === null || typeof index !== 'object' || texts === null || typeof texts !== 'object') return 'has no index or no texts';
  if (!Number.isSafeInteger(index.next) || index.next < 1) return 'has no next sequence';
  if (!Array.isArray(index.versions) || index.versions.length === 0) return 'holds no version';
  if (!Array.isArray(index.activations) || !index.activations.every((s) => Number.isSafeInteger(s))) return 'has no activation stack';
  const seen = new Set<number>();
  let previous = 0;
  for (const v of index.versions) {
    if (v === null || typeof v !== 'object' || !Number.isSafeInteger(v.sequence)) return 'has a malformed version entry';
    if (v.sequence <= previous || v.sequence >= index.next) return `has version ${v.sequence} out of order or past next (${index.next})`;
    previous = v.sequence;
    seen.add(v.sequence);
    if (v.id !== id) return `has version ${v.sequence} of another document`;
    const text = texts[v.sequence];
    if (typeof text !== 'string') return `has no text for version ${v.sequence}`;
    if (digestOf(text) !== v.digest || byteLength(text) !== v.bytes)
      return `has a text for version ${v.sequence} that is not the one its digest names`;
    if (v.running !== (v.sequence === index.running))
      return `marks version ${v.sequence} running when version ${index.running ?? 'none'} runs`;
    if (v.rejected && v.running) return `runs version ${v.sequence}, which was rejected`;
  }
  if (Object.keys(texts).length !== seen.size) return 'has texts of versions its index does not name';
  if (index.running !== null && !seen.has(index.running)) return `runs version ${index.running}, which it does not hold`;
  return undefined;
}
