// One problem: its code, where it is (pointer and line:column) and what to do about it.
import type { Problem } from '../check-policy.ts';

export function ProblemItem({ problem }: { problem: Problem }) {
  const { code, severity, message, path, position } = problem;
  return (
    <li className={`problem problem-${severity}`}>
      <div className="problem-head">
        <span className="problem-code">{code}</span>
        {path !== undefined && <code className="problem-path">{path === '' ? '/' : path}</code>}
        {position !== undefined && (
          <span className="problem-position" title={`line ${position.line}, column ${position.column}`}>
            {position.line}:{position.column}
          </span>
        )}
      </div>
      <p className="problem-message">{message}</p>
    </li>
  );
}
