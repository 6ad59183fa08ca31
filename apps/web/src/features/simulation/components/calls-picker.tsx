// Picks the calls to simulate: an agent's recorded calls over a time range, the policy's stored example
// suite, or pasted JSON.
import type { ReactNode, RefObject } from 'react';

/** Why a bound of the recorded calls cannot be sent: the field at fault, and why. */
export interface RecordedProblem {
  field: 'since' | 'until';
  message: string;
}

export interface CallsPick {
  mode: 'recorded' | 'examples' | 'pasted';
  agent: string;
  since: string;
  until: string;
  pasted: string;
}

export const SAMPLE_CALLS = JSON.stringify(
  [
    {
      tool: { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } },
      arguments: { amount: '80' },
    },
    { tool: { name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } }, arguments: null },
  ],
  null,
  2,
);

interface CallsPickerProps {
  pick: CallsPick;
  onPick: (p: CallsPick) => void;
  /** Why the pasted calls cannot be sent, if they cannot. */
  invalid: string | null;
  /** The pasted calls' field, where a problem of their text is shown (lib/show-place.ts). */
  pastedField?: RefObject<HTMLTextAreaElement | null>;
  /** What the picked policy's example suite holds, or why it cannot be run (ExamplesStatus). */
  examples: ReactNode;
  /** Why a bound of the recorded calls cannot be sent, if one cannot. */
  recordedInvalid?: RecordedProblem | null;
  /** The two bounds' fields, which the form focuses when one is at fault. */
  boundFields?: RefObject<Record<RecordedProblem['field'], HTMLInputElement | null>>;
}

export function CallsPicker({ pick, onPick, invalid, pastedField, examples, recordedInvalid, boundFields }: CallsPickerProps) {
  return (
    <fieldset className="sim-calls">
      <legend>Calls</legend>
      <label className="sim-radio">
        <input type="radio" name="calls" checked={pick.mode === 'recorded'} onChange={() => onPick({ ...pick, mode: 'recorded' })} />
        Recorded calls of an agent
      </label>
      <label className="sim-radio">
        <input type="radio" name="calls" checked={pick.mode === 'examples'} onChange={() => onPick({ ...pick, mode: 'examples' })} />
        The policy's examples
      </label>
      <label className="sim-radio">
        <input type="radio" name="calls" checked={pick.mode === 'pasted'} onChange={() => onPick({ ...pick, mode: 'pasted' })} />
        Pasted JSON
      </label>
      {pick.mode === 'recorded' && (
        <RecordedFields pick={pick} onPick={onPick} problem={recordedInvalid ?? null} boundFields={boundFields} />
      )}
      {pick.mode === 'examples' && examples}
      {pick.mode === 'pasted' && <PastedField pick={pick} onPick={onPick} invalid={invalid} pastedField={pastedField} examples={null} />}
    </fieldset>
  );
}

function RecordedFields({
  pick,
  onPick,
  problem,
  boundFields,
}: {
  pick: CallsPick;
  onPick: (p: CallsPick) => void;
  problem: RecordedProblem | null;
  boundFields: CallsPickerProps['boundFields'];
}) {
  const bound = (field: RecordedProblem['field']) => ({
    ref: (input: HTMLInputElement | null) => {
      if (boundFields?.current) boundFields.current[field] = input;
    },
    'aria-invalid': problem?.field === field,
    'aria-describedby': problem?.field === field ? 'sim-recorded-problem' : undefined,
  });
  return (
    <>
      <div className="sim-pickers">
        <label className="field">
          Agent
          <input value={pick.agent} placeholder="every agent" onChange={(e) => onPick({ ...pick, agent: e.target.value })} />
        </label>
        <label className="field">
          Since
          <input
            type="datetime-local"
            step="1"
            value={pick.since}
            onChange={(e) => onPick({ ...pick, since: e.target.value })}
            {...bound('since')}
          />
        </label>
        <label className="field">
          Until
          <input
            type="datetime-local"
            step="1"
            value={pick.until}
            onChange={(e) => onPick({ ...pick, until: e.target.value })}
            {...bound('until')}
          />
        </label>
      </div>
      {problem !== null && (
        <p id="sim-recorded-problem" className="state state-error" role="alert">
          {problem.field === 'since' ? 'Since' : 'Until'}: {problem.message}
        </p>
      )}
    </>
  );
}

function PastedField({ pick, onPick, invalid, pastedField }: CallsPickerProps) {
  return (
    <>
      <label className="field" htmlFor="sim-pasted">
        Calls (JSON)
      </label>
      <textarea
        id="sim-pasted"
        ref={pastedField}
        className="sim-pasted"
        rows={8}
        spellCheck={false}
        value={pick.pasted}
        aria-invalid={invalid !== null}
        aria-describedby={invalid !== null ? 'sim-pasted-hint sim-pasted-problem' : 'sim-pasted-hint'}
        onChange={(e) => onPick({ ...pick, pasted: e.target.value })}
      />
      <p id="sim-pasted-hint" className="muted">
        An array of {'{tool: {name, action, amount?}, arguments, expect?}'}; arguments null when unknown.
      </p>
      {invalid !== null && (
        <p id="sim-pasted-problem" className="state state-error" role="alert">
          {invalid}
        </p>
      )}
    </>
  );
}
