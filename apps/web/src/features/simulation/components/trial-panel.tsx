// A running trial's report for the picked policy: calls seen, sampled, agreed and differed.
import { ErrorNotice } from '../../../components/query-state.tsx';
import { useTrial } from '../api/get-trial.ts';

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
        Sampling {Math.round(t.sample_rate * 100)}% since {new Date(t.started_at).toLocaleString()}
      </p>
      <dl className="sim-counts">
        <Count label="Calls" value={t.calls} />
        <Count label="Sampled" value={t.sampled} />
        <Count label="Agreed" value={t.agreed} />
        <Count label="Differed" value={t.differed} />
      </dl>
    </section>
  );
}

export function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="sim-count">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
