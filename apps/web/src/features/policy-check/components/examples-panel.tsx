// The policy's example calls with expected outcomes, read from the suite stored beside the policy
// (policies/<name>.examples.json) and decided live against the policy text as it is typed.
import { exampleSuiteIdOf } from '@tollgate/engine';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useExampleSuite } from '../../../lib/example-suites.ts';
import { usePostExampleSuite } from '../api/post-example-suite.ts';
import { SuiteEditor } from './suite-editor.tsx';
import { SuiteOutcome } from './suite-outcome.tsx';

interface ExamplesPanelProps {
  /** The policy's id. */
  id: string;
  text: string;
  canSave: boolean;
}

export function ExamplesPanel({ id, text, canSave }: ExamplesPanelProps) {
  const suiteId = exampleSuiteIdOf(id);
  const stored = useExampleSuite(id);
  // Kept here, so the outcome stays shown when a stored version remounts the suite editor.
  const save = usePostExampleSuite();
  return (
    <section className="examples-panel" aria-labelledby="examples-heading">
      <h2 id="examples-heading" className="panel-title">
        Examples
      </h2>
      {suiteId === undefined && <p className="state">Only a policy document has an example suite.</p>}
      {suiteId !== undefined && stored.isPending && <Loading label="Loading the example suite" />}
      {stored.isError && <ErrorNotice error={stored.error} />}
      {suiteId !== undefined && stored.isSuccess && (
        <SuiteEditor
          // A new stored version starts the text afresh from what is stored.
          key={stored.data?.sequence ?? 'none'}
          suiteId={suiteId}
          policyText={text}
          stored={stored.data}
          canSave={canSave}
          saving={save.isPending}
          onSave={(content, reason) => save.mutate({ policyId: id, id: suiteId, content, reason, basedOn: stored.data?.sequence ?? null })}
        />
      )}
      {save.isError && <ErrorNotice error={save.error} />}
      {save.data !== undefined && <SuiteOutcome outcome={save.data} onReload={() => stored.refetch()} />}
    </section>
  );
}
