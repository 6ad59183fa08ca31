// The results: agreed/differed/not-evaluable counts above a table with one row per call.
import { Empty } from '../../../components/query-state.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import type { Simulation } from '../api/run-simulation.ts';
import type { SimulationRequest } from '../api/types.ts';
import { ResultRow } from './result-row.tsx';

function versionName(sequence: number | undefined): string {
  return sequence === undefined ? 'Running version' : `Version ${sequence}`;
}

const REFERENCE = { candidate: 'Candidate', expected: 'Expected', recorded: 'Recorded' } as const;

export function SimulationResults({ simulation, request }: { simulation: Simulation; request: SimulationRequest }) {
  const { counts, rows, compared } = simulation;
  const mine = versionName(request.document.sequence);
  const theirs = compared === 'candidate' ? `Candidate: ${versionName(request.candidate?.sequence)}` : REFERENCE[compared];
  return (
    <section className="stack" aria-label="Simulation results">
      <p className="sim-summary" role="status">
        <strong>{counts.calls}</strong> calls: <strong>{counts.agreed}</strong> agreed, <strong>{counts.differed}</strong> differed,{' '}
        <strong>{counts.not_evaluable}</strong> not evaluable
      </p>
      {rows.length === 0 ? (
        <Empty>No calls matched: widen the agent or the time range.</Empty>
      ) : (
        <ScrollPane as="div" label="Simulated calls, scrolls sideways" className="sim-table-wrap">
          <table className="sim-table">
            <caption>
              {request.document.id}: {mine} against {theirs.toLowerCase()}, {counts.calls} calls
            </caption>
            <thead>
              <tr>
                <th scope="col">Call</th>
                <th scope="col">{mine}</th>
                <th scope="col">{theirs}</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, i) => (
                // Example names need not be unique; the order is the one sent.
                <ResultRow key={`${i}:${row.call.name}`} row={row} />
              ))}
            </tbody>
          </table>
        </ScrollPane>
      )}
    </section>
  );
}
