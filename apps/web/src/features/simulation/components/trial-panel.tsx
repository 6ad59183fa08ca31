// A trial's report for the picked policy, following the calls as they arrive: calls seen, sampled, agreed
// and differed, and the calls whose answers differed, each with the running version's and the candidate's.
import { ErrorNotice } from '../../../components/query-state.tsx';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { useTrial } from '../api/get-trial.ts';
import type { TrialReport } from '../api/types.ts';

export function TrialPanel({ document }: { document: string }) {
  const trial = useTrial(document);
  if (trial.isError) return <ErrorNotice error={trial.error} />;
  if (!trial.data) return null;
  const t = trial.data;
  return (
    <section className="sim-trial" aria-label="Trial report">
      <h3>
        Trial of version {t.candidate} {t.running ? '(running)' : '(stopped)'}
      </h3>
      <p className="muted">
        Sampling {Math.round(t.sample_rate * 100)}%, started <RelativeTime at={t.started_at} />
        {t.running && ', updated as calls arrive'}
      </p>
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
