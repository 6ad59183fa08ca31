// The simulation's inputs: the versions and the calls, checked before the Run button sends them.
import { type FormEvent, useMemo, useRef, useState } from 'react';
import { useExampleSuiteOrDraft } from '../../../lib/example-suites.ts';
import { showPlace } from '../../../lib/show-place.ts';
import { readExampleCalls } from '../api/example-calls.ts';
import { parseCalls } from '../api/parse-calls.ts';
import type { PolicySummary, SimulationRequest } from '../api/types.ts';
import { isoOfLocal } from '../trial-form.ts';
import { type CallsPick, CallsPicker, type RecordedProblem, SAMPLE_CALLS } from './calls-picker.tsx';
import { ExamplesStatus } from './examples-status.tsx';
import { type PolicyPick, PolicyPicker } from './policy-picker.tsx';

interface SimulationFormProps {
  policies: PolicySummary[];
  running: boolean;
  withArguments: boolean;
  onDocument: (id: string) => void;
  onRun: (request: SimulationRequest) => void;
}

/**
 * A bound of the recorded calls: no bound when empty, else the datetime-local value as an ISO time, or why it is none
 * (a date that does not exist, or a time the clocks skip: refused, never moved; trial-form.ts, isoOfLocal).
 */
function boundOf(local: string): { ok: true; value: string | undefined } | { ok: false; problem: string } {
  return local === '' ? { ok: true, value: undefined } : isoOfLocal(local);
}

export function SimulationForm({ policies, running, withArguments, onDocument, onRun }: SimulationFormProps) {
  const [policy, setPolicy] = useState<PolicyPick>({ document: policies[0]?.id ?? null, sequence: null, candidate: null });
  const [calls, setCalls] = useState<CallsPick>({ mode: 'recorded', agent: '', since: '', until: '', pasted: SAMPLE_CALLS });
  const [invalid, setInvalid] = useState<string | null>(null);
  const [recordedInvalid, setRecordedInvalid] = useState<RecordedProblem | null>(null);
  const pastedField = useRef<HTMLTextAreaElement>(null);
  const boundFields = useRef<Record<RecordedProblem['field'], HTMLInputElement | null>>({ since: null, until: null });
  const picked = policies.find((p) => p.id === policy.document);
  // A drafted policy runs no version yet: its newest is the one to simulate (docs/console.md, "First run").
  const defaultSequence = picked?.running_sequence ?? (picked && picked.versions > 0 ? picked.versions : null);
  const pick = { ...policy, sequence: policy.sequence ?? defaultSequence };
  // Fetched only once the examples are picked; the suite is the one stored beside the picked policy.
  const suite = useExampleSuiteOrDraft(calls.mode === 'examples' ? pick.document : null);
  const stored = suite.data;
  const exampleCalls = useMemo(() => (stored ? readExampleCalls(stored.id, stored.text) : null), [stored]);
  const examplesReady = calls.mode !== 'examples' || exampleCalls?.ok === true;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pick.document === null) return;
    const document = pick.sequence === null ? { id: pick.document } : { id: pick.document, sequence: pick.sequence };
    const candidate = pick.candidate === null ? undefined : { id: pick.document, sequence: pick.candidate };
    if (calls.mode === 'pasted') {
      const parsed = parseCalls(calls.pasted);
      setInvalid(parsed.ok ? null : parsed.message);
      if (!parsed.ok) return showPlace(pastedField.current, parsed.place);
      onRun({ document, candidate, calls: { pasted: parsed.calls }, withArguments });
      return;
    }
    if (calls.mode === 'examples') {
      if (exampleCalls?.ok) onRun({ document, candidate, calls: { examples: exampleCalls.suite }, withArguments });
      return;
    }
    const since = boundOf(calls.since);
    const until = boundOf(calls.until);
    const refuse = (field: RecordedProblem['field'], message: string) => {
      setRecordedInvalid({ field, message });
      boundFields.current[field]?.focus();
    };
    if (!since.ok) return refuse('since', since.problem);
    if (!until.ok) return refuse('until', until.problem);
    setRecordedInvalid(null);
    const recorded = { agent: calls.agent.trim() || undefined, since: since.value, until: until.value };
    onRun({ document, candidate, calls: { recorded }, withArguments });
  };

  const choose = (next: PolicyPick) => {
    setPolicy(next);
    if (next.document !== null && next.document !== policy.document) onDocument(next.document);
  };

  return (
    <form className="stack" onSubmit={submit} aria-label="Simulation">
      <PolicyPicker policies={policies} pick={pick} onPick={choose} />
      <CallsPicker
        pick={calls}
        onPick={setCalls}
        invalid={invalid}
        recordedInvalid={recordedInvalid}
        boundFields={boundFields}
        pastedField={pastedField}
        examples={<ExamplesStatus pending={suite.isLoading} error={suite.error} stored={stored} calls={exampleCalls} />}
      />
      <div>
        <button type="submit" className="button button-primary" disabled={running || pick.document === null || !examplesReady}>
          {running ? 'Running…' : 'Run'}
        </button>
      </div>
    </form>
  );
}
