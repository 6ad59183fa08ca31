// One simulated call: tool and arguments, each version's decision with its deciding rule, and the status in words.
import type { SimulationRow } from '../api/run-simulation.ts';

const STATUS_TEXT = { agreed: 'agreed', differed: '≠ differed', not_evaluable: 'not evaluable: ARGUMENTS_REQUIRED', decided: 'decided' };

/** A candidate's decision, or the expected or recorded one it is compared with. */
function referenceOf(row: SimulationRow['call']): unknown {
  return row.candidate ?? row.expected ?? row.recorded;
}

function OutcomeCell({ outcome }: { outcome: unknown }) {
  if (typeof outcome !== 'object' || outcome === null) return <td className="muted">—</td>;
  const o = outcome as { decision?: unknown; rule?: unknown; code?: unknown; not_evaluable?: unknown };
  if (o.not_evaluable === true) return <td className="sim-not-evaluable">not evaluable ({String(o.code)})</td>;
  return (
    <td>
      <span className="sim-decision">{String(o.decision)}</span>
      {typeof o.rule === 'string' && <span className="sim-rule">rule {o.rule}</span>}
      {o.rule === null && <span className="sim-rule">no rule (default)</span>}
      {typeof o.code === 'string' && <span className="sim-rule">{o.code}</span>}
    </td>
  );
}

export function ResultRow({ row }: { row: SimulationRow }) {
  const { call, summary } = row;
  return (
    <tr className={`sim-row sim-row-${call.status}`}>
      <th scope="row">
        <span className="sim-tool">{call.tool}</span>
        <span className="sim-args">{summary}</span>
      </th>
      <OutcomeCell outcome={call.document} />
      <OutcomeCell outcome={referenceOf(call)} />
      <td>
        <span className={`badge sim-status-${call.status}`}>{STATUS_TEXT[call.status]}</span>
      </td>
    </tr>
  );
}
