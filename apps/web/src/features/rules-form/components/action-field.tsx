// The rule's action: picked from the catalogue's tools, or typed when there is no catalogue.
import type { LintCatalogue } from '@tollgate/engine';
import { DraftInput } from './draft-input.tsx';

interface ActionFieldProps {
  id: string;
  value: string;
  catalogue: LintCatalogue | undefined;
  onValue: (action: string) => void;
}

export function ActionField({ id, value, catalogue, onValue }: ActionFieldProps) {
  if (catalogue === undefined) return <DraftInput id={id} value={value} onValue={onValue} spellCheck={false} required />;
  const names = catalogue.tools.map((tool) => tool.name);
  return (
    <select id={id} className="input" value={value} onChange={(event) => onValue(event.target.value)}>
      {/* An action the catalogue lacks stays pickable, so the select never hides what the sheet says. */}
      {!names.includes(value) && <option value={value}>{value === '' ? '(no action)' : `${value} (not in the catalogue)`}</option>}
      {catalogue.tools.map((tool) => (
        <option key={tool.name} value={tool.name}>
          {tool.name} ({tool.kind})
        </option>
      ))}
    </select>
  );
}
