// The problems of a pasted policy text as a person reads them: a refusal of POST /v1/policies/diff carries which
// side did not read and each problem's place (line and column, or a JSON Pointer) and code (docs/review.md).

export interface PastedProblem {
  code: string;
  message: string;
  line?: number;
  column?: number;
  path?: string;
}

export interface PastedRefusal {
  side: 'running' | 'candidate';
  problems: PastedProblem[];
}

/**
 * The side and problems of a refusal's details, or undefined when they are not a pasted text's refusal.
 *
 * @example
 * pastedRefusalOf({ side: 'candidate', problems: [{ code: 'DUPLICATE_MEMBER', message: 'x', line: 4, column: 3 }] })
 * // { side: 'candidate', problems: [...] }
 */
export function pastedRefusalOf(details: unknown): PastedRefusal | undefined {
  if (typeof details !== 'object' || details === null) return undefined;
  const { side, problems } = details as { side?: unknown; problems?: unknown };
  if ((side !== 'running' && side !== 'candidate') || !Array.isArray(problems)) return undefined;
  const read = problems.filter(
    (p): p is PastedProblem => typeof p === 'object' && p !== null && typeof p.code === 'string' && typeof p.message === 'string',
  );
  return { side, problems: read };
}

/**
 * Where a problem is and what, in one line.
 *
 * @example
 * problemLine({ code: 'DUPLICATE_MEMBER', message: 'default is named twice', line: 4, column: 3 }) // 'line 4, column 3: DUPLICATE_MEMBER: default is named twice'
 * problemLine({ code: 'INVALID_VALUE', message: 'not an effect', path: '/rules/5/effect' }) // '/rules/5/effect: INVALID_VALUE: not an effect'
 */
export function problemLine(p: PastedProblem): string {
  const where =
    p.line !== undefined
      ? `line ${p.line}${p.column !== undefined ? `, column ${p.column}` : ''}`
      : p.path !== undefined && p.path !== ''
        ? p.path
        : 'the text';
  return `${where}: ${p.code}: ${p.message}`;
}
