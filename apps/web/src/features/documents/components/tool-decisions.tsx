// A decision map as a table: every catalogue tool, its decision, and the rule or code that decides it; a tool
// decided by its amount or other arguments is marked "depends on arguments", with its bands and rules.
import type { ToolDecision } from '../api/types.ts';
import { bandWords, decisionLabel, outcomeWords, rulesInvolved } from '../review-words.ts';

export function ToolDecisions({ tools, label }: { tools: readonly ToolDecision[]; label: string }) {
  return (
    <div className="sim-table-wrap">
      <table className="sim-table decision-map" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Decision</th>
            <th scope="col">Decided by</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <ToolRow key={tool.tool} tool={tool} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ToolRow({ tool }: { tool: ToolDecision }) {
  const depends = tool.outcome === undefined;
  return (
    <tr>
      <th scope="row" className="map-tool">
        {tool.tool} <span className="muted">({tool.action})</span>
      </th>
      <td className="map-decision">
        <span className={`badge badge-decision-${depends ? 'depends' : tool.decision}`}>{decisionLabel(tool.decision)}</span>
      </td>
      <td>
        {tool.outcome ? (
          outcomeWords(tool.outcome)
        ) : (
          <>
            <p className="decision-rules">Rules involved: {rulesInvolved(tool).join(', ') || 'none'}</p>
            {tool.reason !== undefined && <p className="muted">{tool.reason}</p>}
            {tool.bands && (
              // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
              <ul role="list" className="decision-bands" aria-label={`Bands of ${tool.tool}`}>
                {tool.bands.map((band) => (
                  <li key={band.amount?.words ?? 'none'}>{bandWords(band)}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </td>
    </tr>
  );
}
