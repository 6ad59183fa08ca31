// A decision map as a table: every catalogue tool, its decision, and the rule or code that decides it; a tool
// decided by its amount or other arguments is marked "depends on arguments", with its bands and rules.
import { Fragment } from 'react';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import type { ToolDecision } from '../api/types.ts';
import { bandWords, decisionLabel, outcomeWords, rulesInvolved } from '../review-words.ts';

export function ToolDecisions({ tools, label }: { tools: readonly ToolDecision[]; label: string }) {
  return (
    <ScrollPane as="div" label={`${label}, scrolls sideways`} className="sim-table-wrap">
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
            <tr key={tool.tool}>
              <ToolName tool={tool} />
              <td className="map-decision">
                <DecisionBadge tool={tool} />
              </td>
              <td className="map-decided">
                <DecidedBy tool={tool} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollPane>
  );
}

/**
 * A tool's row header. Names break only after their separators (`issue_` `refund`, `refund.` `issue`): a table cell
 * may shrink to its longest unbreakable part, never through the middle of a word.
 */
export function ToolName({ tool }: { tool: { tool: string; action: string } }) {
  return (
    <th scope="row" className="map-tool">
      <BreakAtSeparators text={tool.tool} />{' '}
      <span className="muted">
        (<BreakAtSeparators text={tool.action} />)
      </span>
    </th>
  );
}

function BreakAtSeparators({ text }: { text: string }) {
  const parts = text.split(/(?<=[._/:-])/);
  return parts.map((part, i) => (
    <Fragment key={i}>
      {i > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

export function DecisionBadge({ tool }: { tool: ToolDecision }) {
  const depends = tool.outcome === undefined;
  return <span className={`badge badge-decision-${depends ? 'depends' : tool.decision}`}>{decisionLabel(tool.decision)}</span>;
}

/** The outcome with its rule or code, or for a tool whose calls differ, the rules involved and its bands. */
export function DecidedBy({ tool }: { tool: ToolDecision }) {
  if (tool.outcome) return <>{outcomeWords(tool.outcome)}</>;
  return (
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
  );
}
