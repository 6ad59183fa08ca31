// One template parameter: its input, what it means and, when the engine refuses the value, why.
import type { TemplateParameter } from '@tollgate/engine';
import { useId } from 'react';

interface ParameterFieldProps {
  parameter: TemplateParameter;
  value: string;
  problems: readonly string[] | undefined;
  onChange: (value: string) => void;
}

export function ParameterField({ parameter, value, problems, onChange }: ParameterFieldProps) {
  const id = useId();
  const hint = `${id}-hint`;
  const error = `${id}-error`;
  const invalid = problems !== undefined && problems.length > 0;
  return (
    <div className="field template-field">
      <label htmlFor={id}>{parameter.name}</label>
      <input
        id={id}
        className="input"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${hint} ${error}` : hint}
        spellCheck={false}
      />
      <span id={hint} className="muted">
        {parameter.description} ({parameter.type}, default {parameter.default})
      </span>
      {invalid && (
        <span id={error} className="field-error">
          {problems.join(' ')}
        </span>
      )}
    </div>
  );
}
