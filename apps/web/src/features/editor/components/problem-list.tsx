// The problems as an accessible list; each item moves the editor's cursor to its line.
import type { LocatedProblem } from '../check-document.ts';

export function ProblemList({ problems, onJump }: { problems: LocatedProblem[]; onJump: (line: number, column: number) => void }) {
  if (problems.length === 0) return <p className="problems-empty">No problems found.</p>;
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul className="problems" role="list" aria-label="Problems">
      {problems.map((problem, index) => (
        // Problems have no identity of their own; the list is rebuilt on every change.
        <li key={index} className={`problem problem-${problem.severity}`}>
          <button type="button" className="problem-jump" onClick={() => onJump(problem.at?.line ?? 1, problem.at?.column ?? 1)}>
            <span className="problem-head">
              <span className="problem-code">{problem.code}</span>
              <span className="problem-position">{problem.at === undefined ? 'whole document' : `line ${problem.at.line}`}</span>
              {problem.path !== undefined && <code className="problem-path">{problem.path === '' ? '/' : problem.path}</code>}
            </span>
            <span className="problem-message">{problem.message}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
