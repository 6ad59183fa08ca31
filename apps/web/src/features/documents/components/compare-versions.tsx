// Pick two versions; read their diff beside what the second widens over the first and, for a policy, the
// impact preview: which tools of the agents' catalogues change decision from the first to the second.
import { useState } from 'react';
import { defaultPair, type VersionPair } from '../api/default-pair.ts';
import type { DocumentVersion } from '../api/types.ts';
import { ImpactPreviewPanel } from './impact-preview.tsx';
import { ImpactSummary } from './impact-summary.tsx';
import { VersionDiff } from './version-diff.tsx';
import { VersionPickers } from './version-pickers.tsx';

export function CompareVersions({ id, history, isPolicy }: { id: string; history: readonly DocumentVersion[]; isPolicy: boolean }) {
  // Until the person picks, the pair follows the history: the running version against the newest candidate.
  const [picked, setPicked] = useState<VersionPair | null>(null);
  const pair = picked ?? defaultPair(history);
  if (pair === null) return null;
  return (
    <section className="panel" aria-labelledby="compare-heading">
      <h2 id="compare-heading" className="panel-title">
        Compare versions
      </h2>
      <VersionPickers history={history} pair={pair} onPick={setPicked} />
      <div className="compare">
        <VersionDiff id={id} pair={pair} />
        <div className="stack">
          <ImpactSummary id={id} pair={pair} />
          {isPolicy && pair.from !== pair.to && <ImpactPreviewPanel id={id} candidate={pair.to} running={pair.from} />}
        </div>
      </div>
    </section>
  );
}
