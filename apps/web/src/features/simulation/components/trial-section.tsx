// The picked policy's trial on live calls: its report (with Stop for owners and admins) and, for them, the
// "Start a trial" form behind a disclosure; other members read the report and are told who may start one.
import { useTrial } from '../api/get-trial.ts';
import { TrialPanel } from './trial-panel.tsx';
import { TrialStartForm } from './trial-start-form.tsx';

export function TrialSection({ document, canTrial }: { document: string; canTrial: boolean }) {
  const trial = useTrial(document);
  return (
    <div className="stack">
      <TrialPanel document={document} canStop={canTrial} />
      {canTrial ? (
        <details className="sim-trial-form">
          <summary>Start a trial</summary>
          {/* A form of its own for each policy, so nothing typed for one is sent for another. */}
          <TrialStartForm key={document} document={document} replaces={trial.data !== undefined && trial.data !== null} />
        </details>
      ) : (
        <p className="muted">Only owners and admins start and stop a trial on live calls; every member reads its report.</p>
      )}
    </div>
  );
}
