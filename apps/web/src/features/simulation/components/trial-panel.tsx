// A trial's report for the picked policy, following the calls as they arrive: its scope, whether it runs or
// why it ended, calls seen, sampled, agreed and differed, and the calls whose answers differed, each with the
// running version's and the candidate's. Owners and admins stop a running trial here, after a confirmation.
import { useRef } from 'react';
import { ConfirmButton } from '../../../components/confirm-button.tsx';
import { ErrorNotice } from '../../../components/query-state.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { useTrial } from '../api/get-trial.ts';
import { useStopTrial } from '../api/stop-trial.ts';
import type { TrialReport } from '../api/types.ts';
import { trialStateWords } from '../trial-form.ts';
import { TrialScope } from './trial-scope.tsx';

export function TrialPanel({ document, canStop }: { document: string; canStop: boolean }) {
  const trial = useTrial(document);
  const stop = useStopTrial();
  const heading = useRef<HTMLHeadingElement>(null);
  if (trial.isError) return <ErrorNotice error={trial.error} />;
  if (!trial.data) return null;
  const t = trial.data;
  return (
    <section className="sim-trial" aria-label="Trial report">
      {/* Takes the focus once the trial is stopped, as the Stop button it came from is gone. */}
      <h3 ref={heading} tabIndex={-1}>
        Trial of version {t.candidate} ({trialStateWords(t)})
      </h3>
      <p className="muted">
        Sampling {Math.round(t.sample_rate * 100)}%, started <RelativeTime at={t.started_at} />
        {t.running && ', updated as calls arrive'}
      </p>
      <TrialScope trial={t} />
      <dl className="sim-counts" aria-label="Trial counts">
        <Count label="Calls" value={t.calls} />
        <Count label="Sampled" value={t.sampled} />
        <Count label="Agreed" value={t.agreed} />
        <Count label="Differed" value={t.differed} />
      </dl>
      {t.differences.length > 0 && (
        <>
          <p className="muted">Calls the candidate would decide differently (the latest {t.differences.length}):</p>
          <ol aria-label="Differing calls" className="trial-differences">
            {t.differences.map((d) => (
              <li key={d.call_id}>
                <code>{d.call_id}</code>: running {answerWords(d.running)} → candidate {answerWords(d.candidate)}
              </li>
            ))}
          </ol>
        </>
      )}
      {canStop && t.running && (
        <ConfirmButton
          label="Stop trial"
          question={`Stop the trial of version ${t.candidate}? It samples no more calls; its counts and differences stay until a trial starts again.`}
          confirmLabel="Stop the trial"
          pending={stop.isPending}
          error={stop.error}
          onConfirm={() => stop.mutate(document, { onSuccess: () => heading.current?.focus() })}
          danger
        />
      )}
    </section>
  );
}

/** A recorded answer in words: `require approval (refund-approval)`, or the code where no rule decided. */
function answerWords(answer: TrialReport['differences'][number]['running']): string {
  const by = answer.rule ?? answer.code;
  return `${answer.decision.replaceAll('_', ' ')}${by ? ` (${by})` : ''}`;
}

export function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="sim-count">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
