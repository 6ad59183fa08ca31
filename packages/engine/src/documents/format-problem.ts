// Formats one problem of a document for a person: `id:LINE: CODE: message`, or `id: CODE at PATH: message`.
import type { Diagnostic } from '../source/diagnostic.ts';

/**
 * Formats a problem as the edit seam reports it (STYLE.md: `file:line: code: message`): with its line
 * where the text places it, else with its path; always with its code, which users script against.
 *
 * @example
 * formatProblem('agents/support.agent.yaml', { code: 'INVALID_VALUE', severity: 'error', message: 'expected one of none, rule, conditions', range })
 * // 'agents/support.agent.yaml:4: INVALID_VALUE: expected one of none, rule, conditions'
 * formatProblem('x.txt', { code: 'document_kind_unknown', severity: 'error', path: '', message: '...' })
 * // 'x.txt: document_kind_unknown at /: ...'
 */
export function formatProblem(id: string, d: Diagnostic): string {
  if (d.range !== undefined) return `${id}:${d.range.start.line}: ${d.code}: ${d.message}`;
  if (d.path !== undefined) return `${id}: ${d.code} at ${d.path === '' ? '/' : d.path}: ${d.message}`;
  return `${id}: ${d.code}: ${d.message}`;
}
