// One problem: its code, where it is (pointer and line:column) and what to do about it; with `onJump` and a place,
// a button that puts the editor's cursor there, as the document editor's problems do.
import type { Problem } from '../check-policy.ts';

interface ProblemItemProps {
  problem: Problem;
  onJump?: (line: number, column: number) => void;
}

export function ProblemItem({ problem, onJump }: ProblemItemProps) {
  const { code, severity, message, path, position } = problem;
  const head = (
    <span className="problem-head">
      <span className="problem-code">{code}</span>
      {path !== undefined && <code className="problem-path">{path === '' ? '/' : path}</code>}
      {position !== undefined && (
        <span className="problem-position" title={`line ${position.line}, column ${position.column}`}>
          {position.line}:{position.column}
        </span>
      )}
    </span>
  );
  if (onJump !== undefined && position !== undefined) {
    return (
      <li className={`problem problem-${severity}`}>
        <button type="button" className="problem-jump" onClick={() => onJump(position.line, position.column)}>
          {head}
          <span className="problem-message">{message}</span>
        </button>
      </li>
    );
  }
  return (
    <li className={`problem problem-${severity}`}>
      {head}
      <p className="problem-message">{message}</p>
    </li>
  );
}
