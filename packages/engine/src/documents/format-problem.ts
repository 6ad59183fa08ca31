// Formats one problem of a document for a person: `id:LINE: message`, or `id: CODE at PATH: message`.
import type { Diagnostic } from '../source/diagnostic.ts';

/**
 * Formats a problem as the edit seam reports it: with its line where the text places it, else with its
 * code and path.
 *
 * @example
 * formatProblem('agents/support.agent.yaml', { code: 'INVALID_VALUE', severity: 'error', message: 'expected one of none, rule, conditions', range })
 * // 'agents/support.agent.yaml:4: expected one of none, rule, conditions'
 * formatProblem('x.txt', { code: 'document_kind_unknown', severity: 'error', path: '', message: '...' })
 * // 'x.txt: document_kind_unknown at /: ...'
 */
export function formatProblem(id: string, d: Diagnostic): string {
  if (d.range !== undefined) return `${id}:${d.range.start.line}: ${d.message}`;
  if (d.path !== undefined) return `${id}: ${d.code} at ${d.path === '' ? '/' : d.path}: ${d.message}`;
  return `${id}: ${d.code}: ${d.message}`;
}
