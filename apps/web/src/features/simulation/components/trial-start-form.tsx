// "Start a trial" (owners and admins) of the picked policy: a stored candidate version, the share of calls it
// also decides, and an optional scope (one agent, one tool, an end time, a number of samples). A field the
// form cannot send takes the focus with why; the server's refusals show their code beside the form, and
// nothing typed is lost either way (docs/console.md, "Simulation").
import { type FormEvent, useId, useRef, useState } from 'react';
import { ApiRefusal } from '../../../components/api-refusal.tsx';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useVersions } from '../api/get-versions.ts';
import { useStartTrial } from '../api/start-trial.ts';
import type { PolicyVersion } from '../api/types.ts';
import { EMPTY_TRIAL_FORM, startTrialBody, type TrialField, type TrialFormValues, trialCandidates } from '../trial-form.ts';

interface TrialStartFormProps {
  document: string;
  /** Whether the policy has a trial now (running or ended): starting another replaces it. */
  replaces: boolean;
}

export function TrialStartForm({ document, replaces }: TrialStartFormProps) {
  const versions = useVersions(document);
  if (versions.isPending) return <Loading label="Loading the versions" />;
  if (versions.isError) return <ErrorNotice error={versions.error} />;
  const offered = trialCandidates(versions.data);
  if (offered.length === 0) {
    return (
      <p className="muted">
        No version of {document} can run as a trial: every stored version runs or was rejected. Save a candidate in the editor first.
      </p>
    );
  }
  return <StartForm document={document} offered={offered} replaces={replaces} />;
}

function StartForm({ document, offered, replaces }: TrialStartFormProps & { offered: PolicyVersion[] }) {
  const start = useStartTrial();
  const [form, setForm] = useState<TrialFormValues>(EMPTY_TRIAL_FORM);
  const [problem, setProblem] = useState<{ field: TrialField; message: string } | null>(null);
  const [started, setStarted] = useState<string | null>(null);
  const fields = useRef<Partial<Record<TrialField, HTMLInputElement | HTMLSelectElement | null>>>({});
  const id = useId();
  const problemId = `${id}-problem`;
  const set = (patch: Partial<TrialFormValues>) => setForm((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (start.isPending) return;
    setStarted(null);
    const made = startTrialBody(
      document,
      form,
      offered.map((v) => v.sequence),
    );
    if (!made.ok) {
      start.reset();
      setProblem({ field: made.field, message: made.problem });
      fields.current[made.field]?.focus();
      return;
    }
    setProblem(null);
    start.mutate(made.body, {
      onSuccess: (report) => {
        setForm(EMPTY_TRIAL_FORM);
        setStarted(`The trial of version ${report.candidate} runs: its report is above.`);
      },
    });
  };

  /** A field's id, its ref and, when it is the one at fault, aria-invalid and the problem in its description. */
  const wired = (field: TrialField, hinted = false) => {
    const faulty = problem?.field === field;
    const described = [hinted ? `${id}-${field}-hint` : undefined, faulty ? problemId : undefined].filter(Boolean).join(' ');
    return {
      id: `${id}-${field}`,
      ref: (element: HTMLInputElement | HTMLSelectElement | null) => {
        fields.current[field] = element;
      },
      'aria-invalid': faulty,
      'aria-describedby': described === '' ? undefined : described,
    };
  };
  /** A field's label and hint, outside its label so the hint is its description, not part of its name. */
  const label = (field: TrialField, text: string) => <label htmlFor={`${id}-${field}`}>{text}</label>;
  const hint = (field: TrialField, text: string) => (
    <span id={`${id}-${field}-hint`} className="muted">
      {text}
    </span>
  );
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;

  return (
    <form className="stack" aria-label="Start a trial" onSubmit={submit} noValidate>
      <p className="muted">
        The candidate decides a share of the gate's live calls again, after each is answered; it never changes an answer.
      </p>
      <div className="sim-pickers">
        <div className="field">
          {label('candidate', 'Version to trial')}
          <select
            value={form.candidate === '' ? String(offered[0]?.sequence) : form.candidate}
            onChange={(e) => set({ candidate: e.target.value })}
            {...wired('candidate')}
          >
            {offered.map((v) => (
              <option key={v.sequence} value={String(v.sequence)}>
                Version {v.sequence}: {v.reason}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          {label('percent', 'Sample rate (%)')}
          <input
            inputMode="numeric"
            size={5}
            value={form.percent}
            onChange={(e) => set({ percent: e.target.value })}
            autoComplete="off"
            {...wired('percent', true)}
          />
          {hint('percent', 'A whole percent, 1 to 100')}
        </div>
      </div>
      <fieldset className="sim-trial-scope">
        <legend>Scope (optional)</legend>
        <div className="sim-pickers">
          <div className="field">
            {label('agent', "Only this agent's calls")}
            <input
              value={form.agent}
              placeholder="every agent"
              onChange={(e) => set({ agent: e.target.value })}
              autoComplete="off"
              spellCheck={false}
              {...wired('agent')}
            />
          </div>
          <div className="field">
            {label('tool', 'Only calls of this tool')}
            <input
              value={form.tool}
              placeholder="every tool"
              onChange={(e) => set({ tool: e.target.value })}
              autoComplete="off"
              spellCheck={false}
              {...wired('tool')}
            />
          </div>
          <div className="field">
            {label('endsAt', 'Ends at')}
            <input
              type="datetime-local"
              step="1"
              value={form.endsAt}
              onChange={(e) => set({ endsAt: e.target.value })}
              {...wired('endsAt', true)}
            />
            {hint('endsAt', `In your time zone (${zone}); calls from then on are not sampled`)}
          </div>
          <div className="field">
            {label('maxSamples', 'Max samples')}
            <input
              inputMode="numeric"
              size={8}
              value={form.maxSamples}
              onChange={(e) => set({ maxSamples: e.target.value })}
              autoComplete="off"
              {...wired('maxSamples', true)}
            />
            {hint('maxSamples', 'A whole number: the trial ends after that many samples')}
          </div>
        </div>
      </fieldset>
      {replaces && <p className="muted">Starting replaces the trial shown above: its counts and differences are forgotten.</p>}
      <div className="actions">
        <button type="submit" className="button button-primary" aria-disabled={start.isPending}>
          {start.isPending ? 'Starting trial…' : 'Start trial'}
        </button>
      </div>
      {problem !== null ? (
        <p id={problemId} className="state state-error" role="alert">
          {problem.message}
        </p>
      ) : (
        <ApiRefusal error={start.error} />
      )}
      <p className="state" role="status">
        {started}
      </p>
    </form>
  );
}
