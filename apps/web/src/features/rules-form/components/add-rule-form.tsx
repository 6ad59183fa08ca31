// Adds a rule: its action picked from the catalogue's tools the sheet has no rule for, or typed.
import type { LintCatalogue } from '@tollgate/engine';
import { type FormEvent, useId, useState } from 'react';

interface AddRuleFormProps {
  catalogue: LintCatalogue | undefined;
  /** Actions that have a rule already: one rule per action. */
  taken: readonly string[];
  onAdd: (action: string) => void;
}

export function AddRuleForm({ catalogue, taken, onAdd }: AddRuleFormProps) {
  const id = useId();
  const free = catalogue?.tools.map((tool) => tool.name).filter((name) => !taken.includes(name));
  const [typed, setTyped] = useState('');
  const action = free === undefined ? typed.trim() : typed === '' || !free.includes(typed) ? (free[0] ?? '') : typed;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (action === '') return;
    onAdd(action);
    setTyped('');
  };
  return (
    <form className="rules-add" onSubmit={submit} aria-label="Add a rule">
      <label htmlFor={id} className="editor-label">
        New rule for
      </label>
      {free === undefined ? (
        <input
          id={id}
          className="input"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          placeholder="a tool name"
          spellCheck={false}
        />
      ) : (
        <select id={id} className="input" value={action} onChange={(event) => setTyped(event.target.value)} disabled={free.length === 0}>
          {free.length === 0 && <option value="">every tool has a rule</option>}
          {free.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      )}
      <button type="submit" className="button" disabled={action === ''}>
        Add a rule
      </button>
    </form>
  );
}
