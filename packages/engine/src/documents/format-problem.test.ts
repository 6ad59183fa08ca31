// formatProblem: the line where the text places the problem, else its path; always its code.
import { describe, expect, it } from 'vitest';
import { formatProblem } from './format-problem.ts';

const at = (line: number) => ({ start: { line, column: 3 }, end: { line, column: 9 } });

describe('formatProblem', () => {
  it('gives the line, code and message when the problem has a range', () => {
    expect(
      formatProblem('agents/a.agent.yaml', { code: 'NOT_YAML', severity: 'error', path: '', message: 'not YAML: x', range: at(4) }),
    ).toBe('agents/a.agent.yaml:4: NOT_YAML: not YAML: x');
  });

  it('gives the code and path without a range', () => {
    expect(formatProblem('p.json', { code: 'UNKNOWN_MEMBER', severity: 'error', path: '/rules/0/x', message: 'unknown' })).toBe(
      'p.json: UNKNOWN_MEMBER at /rules/0/x: unknown',
    );
    expect(formatProblem('x.txt', { code: 'document_kind_unknown', severity: 'error', path: '', message: 'no kind' })).toBe(
      'x.txt: document_kind_unknown at /: no kind',
    );
    expect(formatProblem('x', { code: 'TOO_LARGE', severity: 'error', message: 'big' })).toBe('x: TOO_LARGE: big');
  });
});
