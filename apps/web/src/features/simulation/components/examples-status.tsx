// What the picked policy's stored example suite holds, or why it cannot be simulated.
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import type { StoredSuite } from '../../../lib/example-suites.ts';
import type { ExampleCalls } from '../api/example-calls.ts';

interface ExamplesStatusProps {
  pending: boolean;
  error: Error | null;
  stored: StoredSuite | null | undefined;
  calls: ExampleCalls | null;
}

export function ExamplesStatus({ pending, error, stored, calls }: ExamplesStatusProps) {
  if (pending) return <Loading label="Loading the policy's example suite" />;
  if (error) return <ErrorNotice error={error} />;
  if (!stored || !calls) return <p className="state state-empty">This policy has no example suite yet: create one in its editor.</p>;
  if (!calls.ok) {
    return (
      <p className="state state-error" role="alert">
        {calls.message}
      </p>
    );
  }
  const n = calls.suite.examples.length;
  return (
    <p className="muted">
      {n} {n === 1 ? 'example' : 'examples'} from <code>{stored.id}</code>, version {stored.sequence}
      {stored.running ? '' : ' (a draft: not running yet)'}, each compared with the decision it expects.
    </p>
  );
}
