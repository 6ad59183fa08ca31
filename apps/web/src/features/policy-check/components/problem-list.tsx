// The problems as an accessible list, so screen readers and e2e tests read them by role.
import type { Problem } from '../check-policy.ts';
import { ProblemItem } from './problem-item.tsx';

export function ProblemList({ problems, onJump }: { problems: Problem[]; onJump?: (line: number, column: number) => void }) {
  if (problems.length === 0) {
    return <p className="problems-empty">No problems found.</p>;
  }
  return (
    // role="list" survives `list-style: none`, which drops the implicit role in some browsers.
    // biome-ignore lint/a11y/noRedundantRoles: see above
    <ul className="problems" role="list" aria-label="Problems">
      {problems.map((problem, index) => (
        // Problems have no identity of their own; the list is rebuilt on every change.
        <ProblemItem key={index} problem={problem} onJump={onJump} />
      ))}
    </ul>
  );
}
