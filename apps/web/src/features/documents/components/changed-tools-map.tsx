// The decision map of the tools a policy change reaches, under both versions side by side (the impact preview's
// map entries), so a reviewer reads each changed tool's whole decision before and after.
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import type { VersionPair } from '../api/default-pair.ts';
import { useImpactPreview } from '../api/get-impact-preview.ts';
import type { ImpactPreview } from '../api/types.ts';
import { DecidedBy, DecisionBadge, ToolName } from './tool-decisions.tsx';

type ChangedTool = ImpactPreview['catalogues'][number]['tools'][number];

export function ChangedToolsMap({ id, pair }: { id: string; pair: VersionPair }) {
  const preview = useImpactPreview(id, pair.to, pair.from);
  if (!preview.isSuccess) return null;
  // A tool in several catalogues is decided alike in each: one row.
  const tools = new Map<string, ChangedTool>();
  for (const k of preview.data.catalogues) for (const t of k.tools) if (!tools.has(t.tool)) tools.set(t.tool, t);
  if (tools.size === 0) return null;
  const label = 'Decision map of the changed tools';
  return (
    <section aria-labelledby="changed-map-heading">
      <h3 id="changed-map-heading" className="panel-subtitle">
        {label}
      </h3>
      <ScrollPane as="div" label={`${label}, scrolls sideways`} className="sim-table-wrap">
        <table className="sim-table decision-map" aria-label={label}>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Version {pair.from}</th>
              <th scope="col">Version {pair.to}</th>
            </tr>
          </thead>
          <tbody>
            {[...tools.values()].map((t) => (
              <tr key={t.tool}>
                <ToolName tool={t} />
                <td className="map-decided">
                  <DecisionBadge tool={t.running} /> <DecidedBy tool={t.running} />
                </td>
                <td className="map-decided">
                  <DecisionBadge tool={t.candidate} /> <DecidedBy tool={t.candidate} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollPane>
    </section>
  );
}
