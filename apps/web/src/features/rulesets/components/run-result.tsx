// A run's outcome: the set's one pass or fail, the rules that did not pass and which of those hold for a person,
// and each rule's own result.
import type { RulesetRun } from '../api/types.ts';

function RuleIds({ label, ids }: { label: string; ids: readonly string[] }) {
  if (ids.length === 0) return null;
  return (
    <div className="run-rules">
      <span>{label}:</span>
      <ul aria-label={label} className="tags">
        {ids.map((id) => (
          <li key={id} className="tag">
            {id}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function RunResult({ run }: { run: RulesetRun }) {
  return (
    <section className="run-result" aria-label="Run result">
      <p className="run-verdict">
        Verdict of version {run.version_id}: <strong className={`badge badge-verdict-${run.verdict}`}>{run.verdict}</strong>
      </p>
      <RuleIds label="Failed rules" ids={run.failed} />
      <RuleIds label="Held rules" ids={run.held} />
      <div className="table-scroll">
        <table className="run-table" aria-label="Each rule's result">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Version</th>
              <th scope="col">Result</th>
              <th scope="col">Decision</th>
              <th scope="col">Matched rule</th>
              <th scope="col">Summary</th>
            </tr>
          </thead>
          <tbody>
            {run.results.map((r) => (
              <tr key={r.rule_id}>
                <th scope="row">{r.rule_id}</th>
                <td data-label="Version">
                  {r.version_id}
                  {r.pinned ? '' : ' (running)'}
                </td>
                <td data-label="Result">
                  <span className={`badge badge-verdict-${r.result}`}>{r.result}</span>
                </td>
                <td data-label="Decision">
                  {r.decision}
                  {r.code !== null && <code className="run-code"> {r.code}</code>}
                </td>
                <td data-label="Matched rule">{r.rule ?? '—'}</td>
                <td data-label="Summary">{r.summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
