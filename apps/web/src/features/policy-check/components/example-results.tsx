// One table row per example: pass or fail, what it expects, and what the policy being edited decides and by which rule.
import type { ExampleResult, TestReport } from '@tollgate/engine';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { describeOutcome } from '../describe-outcome.ts';

function StatusCell({ status }: { status: ExampleResult['status'] }) {
  const label = status === 'not_evaluable' ? 'not evaluable' : status;
  return <span className={`badge badge-example-${status}`}>{label}</span>;
}

export function ExampleResults({ report }: { report: TestReport }) {
  if (report.results.length === 0) return <p className="state state-empty">The suite has no examples yet.</p>;
  return (
    <>
      <p className="example-counts" role="status">
        {report.passed} passing, {report.failed} failing
        {report.not_evaluable > 0 && `, ${report.not_evaluable} not evaluable`}
      </p>
      <ScrollPane as="div" label="Example results, scrolls sideways" className="example-table-wrap">
        <table className="example-table" aria-label="Example results">
          <thead>
            <tr>
              <th scope="col">Example</th>
              <th scope="col">Result</th>
              <th scope="col">Expected</th>
              <th scope="col">Actual</th>
            </tr>
          </thead>
          <tbody>
            {report.results.map((result, index) => (
              // Example names need not be unique; the order is the suite's.
              <tr key={index} className={`example-row example-${result.status}`}>
                <th scope="row">{result.name}</th>
                <td>
                  <StatusCell status={result.status} />
                </td>
                <td>{describeOutcome(result.expected)}</td>
                <td>{result.actual === null ? `not decided (${result.code})` : describeOutcome(result.actual)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollPane>
    </>
  );
}
