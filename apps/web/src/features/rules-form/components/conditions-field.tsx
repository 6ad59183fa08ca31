// A rule's `when` conditions: each an argument, a comparison and a value; edit, remove, or add one.
import { useId, useState } from 'react';
import { COMPARISONS, type Comparison, type Condition } from '../read-rule-rows.ts';
import { DraftInput } from './draft-input.tsx';

const COMPARISON_WORDS: Record<Comparison, string> = {
  over: 'over',
  under: 'under',
  at_least: 'at least',
  at_most: 'at most',
  is: 'is',
};

interface ConditionsFieldProps {
  conditions: Condition[];
  onConditions: (conditions: Condition[]) => void;
}

export function ConditionsField({ conditions, onConditions }: ConditionsFieldProps) {
  const replace = (index: number, change: Partial<Condition>) =>
    onConditions(conditions.map((c, i) => (i === index ? { ...c, ...change } : c)));
  return (
    <div className="rules-conditions">
      {conditions.length > 0 && (
        // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
        <ul role="list" aria-label="Conditions" className="rules-condition-list">
          {conditions.map((condition, index) => (
            // A condition's key may be edited, so its place is its identity.
            <li key={index} className="rules-condition">
              <DraftInput
                aria-label={`Argument of condition ${index + 1}`}
                value={condition.argument}
                onValue={(argument) => replace(index, { argument: argument.trim() })}
                spellCheck={false}
              />
              <ComparisonSelect
                label={`Comparison of condition ${index + 1}`}
                value={condition.comparison}
                onValue={(comparison) => replace(index, { comparison })}
              />
              <DraftInput
                aria-label={`Value of condition ${index + 1}`}
                value={condition.value}
                onValue={(value) => replace(index, { value })}
                spellCheck={false}
              />
              <button type="button" className="button" onClick={() => onConditions(conditions.filter((_, i) => i !== index))}>
                Remove condition {index + 1}
              </button>
            </li>
          ))}
        </ul>
      )}
      <NewCondition onAdd={(condition) => onConditions([...conditions, condition])} />
    </div>
  );
}

function ComparisonSelect({ label, value, onValue }: { label: string; value: Comparison | ''; onValue: (c: Comparison) => void }) {
  return (
    <select aria-label={label} className="input" value={value} onChange={(event) => onValue(event.target.value as Comparison)}>
      {value === '' && <option value="">(no comparison)</option>}
      {COMPARISONS.map((c) => (
        <option key={c} value={c}>
          {COMPARISON_WORDS[c]}
        </option>
      ))}
    </select>
  );
}

/** A condition being written; it reaches the YAML only when added, so a half-typed one never does. */
function NewCondition({ onAdd }: { onAdd: (condition: Condition) => void }) {
  const id = useId();
  const [argument, setArgument] = useState('');
  const [comparison, setComparison] = useState<Comparison>('over');
  const [value, setValue] = useState('');
  const add = () => {
    onAdd({ argument: argument.trim(), comparison, value });
    setArgument('');
    setValue('');
  };
  return (
    <div className="rules-condition rules-new">
      <input
        id={`${id}-argument`}
        aria-label="New condition argument"
        className="input"
        placeholder="argument, such as amount"
        value={argument}
        onChange={(event) => setArgument(event.target.value)}
        spellCheck={false}
      />
      <ComparisonSelect label="New condition comparison" value={comparison} onValue={setComparison} />
      <input
        aria-label="New condition value"
        className="input"
        placeholder="value, such as 200"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        spellCheck={false}
      />
      <button type="button" className="button" disabled={argument.trim() === '' || value.trim() === ''} onClick={add}>
        Add condition
      </button>
    </div>
  );
}
