// An entry's canonical form as text, and its SHA-256 (chain.ts, docs/audit.md): apart from the rest of the chain so the
// decision log's writer thread, which chains the decisions it writes (record/decision-entry.ts), loads no more than
// this. Every member is written as RFC 8785 writes it (canonicalize, in chain.ts, states the bodies).
import * as crypto from 'node:crypto';
import { createHash } from 'node:crypto';

/** The version of the canonical form; a new form gets a new number, and old entries keep theirs. */
export const CHAIN_FORM = 1;

/** The `prev` of a chain's first entry. */
export const GENESIS = '0'.repeat(64);

/**
 * The canonical form of an entry whose body's canonical text is `bodyText`: its members in RFC 8785's order (at, body,
 * form, kind, prev, seq, writer), each written as canonicalText would, so a writer that keeps the body's text writes
 * it once.
 */
export function formWithBody(entry: { writer: string; seq: number; kind: string; at: string; prev: string }, bodyText: string): string {
  const { writer, seq, kind, at, prev } = entry;
  return `{"at":${JSON.stringify(at)},"body":${bodyText},"form":${CHAIN_FORM},"kind":${JSON.stringify(kind)},"prev":${JSON.stringify(prev)},"seq":${JSON.stringify(seq)},"writer":${JSON.stringify(writer)}}`;
}

/**
 * An entry's canonical form split around its place, for a writer that lets the database chain it
 * (tollgate_record_session_calls_chained, state/postgres-migrations.ts): the form is `head + prev + '","seq":' + seq
 * + tail`, exactly formWithBody's text.
 */
export function formAroundPlace(writer: string, kind: string, at: string, bodyText: string): { head: string; tail: string } {
  return {
    head: `{"at":${JSON.stringify(at)},"body":${bodyText},"form":${CHAIN_FORM},"kind":${JSON.stringify(kind)},"prev":"`,
    tail: `,"writer":${JSON.stringify(writer)}}`,
  };
}

/** The SHA-256 of a text's UTF-8, as lowercase hex. */
export function sha256(text: string): string {
  // The one-shot form where Node has it (20.12 and later): no Hash object a call on the gate's path.
  return oneShot ? oneShot('sha256', text, 'hex') : createHash('sha256').update(text, 'utf8').digest('hex');
}

const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
