// The lines of the audit log stream (docs/audit.md, "The audit log stream"): what `tollgate serve --audit-log` writes
// for this process's writer, each entry as it is chained and each checkpoint as it is signed. Its schema is its own,
// not the export's that `tollgate audit verify` reads: an entry line also carries `ref` and fields lifted from its
// body for a SIEM's convenience. The body is read from its canonical text by the exact reader (stored-json.ts), so a
// number in it is written back as it was chained (writeJson). Bodies hold ids, digests and codes, never an argument
// value or a key (entries.ts); nothing here adds one. Pure.
import { writeJson } from '@tollgate/engine/source';
import { readStoredJson } from '../state/stored-json.ts';
import type { Checkpoint } from './chain.ts';
import type { EntryRow } from './writer.ts';

/** The members of an entry's body lifted to the top of its line, where the kind has them. */
export const LIFTED = ['call_id', 'agent', 'tool', 'decision', 'rule', 'code', 'arguments_digest'] as const;

/** The stream's first line: the writer and its public key (SPKI PEM), so a SIEM holds the key apart from the database. */
export function writerLine(writer: { id: string; publicKey: string; startedAt: string }): string {
  return writeJson({ type: 'writer', writer: writer.id, public_key: writer.publicKey, started_at: writer.startedAt });
}

/** An entry as it was chained: the chain's fields, its `ref`, the lifted members and the body as an object. */
export function entryLine(entry: EntryRow): string {
  const body = readStoredJson(entry.body);
  const lifted: Record<string, unknown> = {};
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const name of LIFTED) if (name in body) lifted[name] = (body as Record<string, unknown>)[name];
  }
  return writeJson({
    type: 'entry',
    writer: entry.writer,
    seq: entry.seq,
    kind: entry.kind,
    at: entry.at,
    ref: entry.ref,
    ...lifted,
    body,
    prev: entry.prev,
    hash: entry.hash,
  });
}

/** A checkpoint as it was signed. */
export function checkpointLine(checkpoint: Checkpoint): string {
  return writeJson({ type: 'checkpoint', ...checkpoint });
}

/** Says that `lines` lines were dropped while the stream was behind (the record in the database keeps them). */
export function droppedLine(lines: number, at: Date): string {
  return writeJson({ type: 'dropped', lines, at: at.toISOString() });
}
