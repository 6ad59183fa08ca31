// Pick two versions and read the change as a review: one summary of what it does at the top, then the text diff
// and, for a policy, the rules one by one and the decision map of the tools it changes (docs/console.md).
import { useState } from 'react';
import { defaultPair, type VersionPair } from '../api/default-pair.ts';
import type { DocumentVersion } from '../api/types.ts';
import { ChangeSummary } from './change-summary.tsx';
import { ChangedToolsMap } from './changed-tools-map.tsx';
import { RuleView } from './rule-view.tsx';
import { VersionDiff } from './version-diff.tsx';
import { VersionPickers } from './version-pickers.tsx';

export function CompareVersions({ id, history, isPolicy }: { id: string; history: readonly DocumentVersion[]; isPolicy: boolean }) {
  // Until the person picks, the pair follows the history: the running version against the newest candidate.
  const [picked, setPicked] = useState<VersionPair | null>(null);
  const pair = picked ?? defaultPair(history);
  if (pair === null) return null;
  const details = isPolicy && pair.from !== pair.to;
  return (
    <section className="panel" aria-labelledby="compare-heading">
      <h2 id="compare-heading" className="panel-title">
        Compare versions
      </h2>
      <VersionPickers history={history} pair={pair} onPick={setPicked} />
      <div className="compare">
        <ChangeSummary id={id} pair={pair} isPolicy={isPolicy} />
        <VersionDiff id={id} pair={pair} />
        {details && <RuleView id={id} pair={pair} />}
        {details && <ChangedToolsMap id={id} pair={pair} />}
      </div>
    </section>
  );
}
