// The policy's example calls with expected outcomes, decided live against the text as it is typed.
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { readExampleSuite, writeExampleSuite } from '../../../lib/example-suites.ts';
import { runExamples } from '../run-examples.ts';
import { ExampleResults } from './example-results.tsx';

export function ExamplesPanel({ id, text }: { id: string; text: string }) {
  const suiteId = useId();
  const [suite, setSuite] = useState(() => readExampleSuite(id));
  // Deferred, so deciding every example never delays a keystroke.
  const policy = useDeferredValue(text);
  const examples = useDeferredValue(suite);
  const run = useMemo(() => runExamples(policy, examples), [policy, examples]);
  const edit = (next: string) => {
    setSuite(next);
    writeExampleSuite(id, next);
  };
  return (
    <section className="examples-panel" aria-labelledby="examples-heading">
      <h2 id="examples-heading" className="panel-title">
        Examples
      </h2>
      {run.state === 'empty' && (
        <p className="state state-empty">
          No example calls yet. Paste a suite (the <code>--examples</code> file of <code>tollgate policy test</code>); drafts from a
          template bring theirs.
        </p>
      )}
      {run.state === 'suite_invalid' && (
        // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
        <ul role="list" aria-label="Suite problems" className="problems">
          {run.problems.map((problem) => (
            <li key={problem} className="problem problem-error">
              {problem}
            </li>
          ))}
        </ul>
      )}
      {run.state === 'policy_invalid' && <p className="state">The policy has errors; the examples run again once they are fixed.</p>}
      {run.state === 'ran' && <ExampleResults report={run.report} />}
      <details className="examples-suite" open={suite.trim() === ''}>
        <summary>Example suite (JSON)</summary>
        <label htmlFor={suiteId} className="editor-label">
          Example suite
        </label>
        <textarea
          id={suiteId}
          className="input examples-text"
          value={suite}
          onChange={(event) => edit(event.target.value)}
          spellCheck={false}
          rows={10}
          placeholder='{"tools": [{"name": "issue_refund", "action": "refund.issue", "amount": {"pointer": "/amount", "currency": "USD"}}], "examples": []}'
        />
        <p className="muted">Kept in this browser for {id}.</p>
      </details>
    </section>
  );
}
