// The id a refused JSON-RPC message is answered with (docs/mcp.md, "One read per message"): JSON-RPC 2.0 wants
// the request's id in an error reply, and null only when it cannot be read. The exact reader hands back what it
// read before it stopped, so an id read whole before a fault further on is answered; an id named twice is not
// one id, so it is null.
import type { Diagnostic } from '@tollgate/engine/source';
import { plainJson } from './plain-json.ts';

export type RequestId = string | number | null;

/**
 * The id of a message the exact reader read (whole, or as far as it got), or null.
 *
 * @example
 * requestIdOf({ jsonrpc: '2.0', id: 7 }, []) // 7
 * requestIdOf({ id: 7 }, [{ code: 'DUPLICATE_MEMBER', path: '/id', ... }]) // null
 */
export function requestIdOf(read: unknown, diagnostics: readonly Diagnostic[]): RequestId {
  // A batch is answered as one: its ids are its messages', not the text's.
  if (read === null || typeof read !== 'object' || Array.isArray(read) || !Object.hasOwn(read, 'id')) return null;
  if (diagnostics.some((d) => d.code === 'DUPLICATE_MEMBER' && d.path === '/id')) return null;
  const id = plainJson((read as { id: unknown }).id);
  if (typeof id === 'string') return id;
  // An id written 1.0 is the SDK's 1 (plain-json.ts); one no double holds is not an id a reply can carry.
  return typeof id === 'number' && Number.isFinite(id) ? id : null;
}
