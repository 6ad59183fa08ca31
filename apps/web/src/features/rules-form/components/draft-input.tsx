// A text field over one YAML value: it keeps what the person is typing (`a, ` before the next name)
// while the YAML holds the value read back, and follows the YAML when it changes from elsewhere.
import { type InputHTMLAttributes, useState } from 'react';

interface DraftInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'onBlur'> {
  /** The value as read from the YAML, in the same form `normalize` gives. */
  value: string;
  onValue: (typed: string) => void;
  /** What the YAML would hold for a typed text; defaults to trimming. */
  normalize?: (typed: string) => string;
  /** 'blur' writes when the field is left or Enter is pressed: for values the YAML reprints, such as checks. */
  commit?: 'change' | 'blur';
}

const trim = (typed: string) => typed.trim();

export function DraftInput({ value, onValue, normalize = trim, commit = 'change', ...rest }: DraftInputProps) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  // Adjusting state while rendering (React's documented pattern): a new value from the YAML replaces
  // the draft unless the draft already says the same thing.
  if (value !== seen) {
    setSeen(value);
    if (normalize(draft) !== value) setDraft(value);
  }
  return (
    <input
      {...rest}
      className={rest.className ?? 'input'}
      value={draft}
      onChange={(event) => {
        setDraft(event.target.value);
        if (commit === 'change') onValue(event.target.value);
      }}
      onBlur={() => {
        if (commit === 'blur' && normalize(draft) !== value) onValue(draft);
      }}
      onKeyDown={(event) => {
        if (commit === 'blur' && event.key === 'Enter') {
          event.preventDefault();
          onValue(draft);
        }
      }}
    />
  );
}

/** A comma list as the YAML holds it: `a, b` for `[a, b]`. */
export function normalizeNames(typed: string): string {
  return splitNames(typed).join(', ');
}

export function splitNames(typed: string): string[] {
  return typed
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
