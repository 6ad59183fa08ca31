// A rule's `check` list: each check written as a flow mapping, such as {field: quantity, at_most: 10}.
import { useState } from 'react';
import { DraftInput } from './draft-input.tsx';

interface ChecksFieldProps {
  checks: string[];
  /** Writes the list; answers why it could not (a check that is not YAML on one line). */
  onChecks: (checks: string[]) => string | undefined;
}

export function ChecksField({ checks, onChecks }: ChecksFieldProps) {
  const [error, setError] = useState<string | undefined>(undefined);
  const write = (next: string[]) => setError(onChecks(next));
  const [draft, setDraft] = useState('');
  return (
    <div className="rules-checks">
      {checks.map((check, index) => (
        // A check's text may be edited, so its place is its identity.
        <div key={index} className="rules-condition">
          <DraftInput
            aria-label={`Check ${index + 1}`}
            value={check}
            commit="blur"
            onValue={(typed) => write(checks.map((c, i) => (i === index ? typed : c)))}
            spellCheck={false}
          />
          <button type="button" className="button" onClick={() => write(checks.filter((_, i) => i !== index))}>
            Remove check {index + 1}
          </button>
        </div>
      ))}
      <div className="rules-condition rules-new">
        <input
          aria-label="New check"
          className="input"
          placeholder="{field: quantity, at_most: 10}"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          spellCheck={false}
        />
        <button
          type="button"
          className="button"
          disabled={draft.trim() === ''}
          onClick={() => {
            const failed = onChecks([...checks, draft]);
            setError(failed);
            if (failed === undefined) setDraft('');
          }}
        >
          Add check
        </button>
      </div>
      {error !== undefined && (
        <p className="state state-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
