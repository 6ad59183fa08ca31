// The engine's problems with one rule (or with the sheet), listed beside it; each jumps to its line.
import type { Diagnostic } from '@tollgate/engine';

interface RowProblemsProps {
  label: string;
  problems: readonly Diagnostic[];
  onJump: (line: number) => void;
}

export function RowProblems({ label, problems, onJump }: RowProblemsProps) {
  if (problems.length === 0) return null;
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label={label} className="problems rules-problems">
      {problems.map((problem, index) => (
        // Problems have no identity of their own; the list is rebuilt on every change.
        <li key={index} className={`problem problem-${problem.severity}`}>
          <button type="button" className="problem-jump" onClick={() => onJump(problem.line ?? 1)}>
            <span className="problem-head">
              <span className="problem-code">{problem.code}</span>
              <span className="problem-position">{problem.line === undefined ? 'whole sheet' : `line ${problem.line}`}</span>
            </span>
            <span className="problem-message">{problem.message}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
