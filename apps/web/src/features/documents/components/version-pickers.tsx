// The two accessible selects that pick the versions to compare.
import type { VersionPair } from '../api/default-pair.ts';
import type { DocumentVersion } from '../api/types.ts';

interface VersionPickersProps {
  history: readonly DocumentVersion[];
  pair: VersionPair;
  onPick: (pair: VersionPair) => void;
}

function optionLabel(version: DocumentVersion): string {
  const marks = [version.running ? 'running' : '', version.rejected ? 'rejected' : ''].filter(Boolean);
  return marks.length === 0 ? `Version ${version.sequence}` : `Version ${version.sequence} (${marks.join(', ')})`;
}

function VersionSelect(props: { label: string; value: number; history: readonly DocumentVersion[]; onChange: (sequence: number) => void }) {
  return (
    <label className="field">
      {props.label}
      <select value={props.value} onChange={(event) => props.onChange(Number(event.target.value))}>
        {props.history.map((version) => (
          <option key={version.sequence} value={version.sequence}>
            {optionLabel(version)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function VersionPickers({ history, pair, onPick }: VersionPickersProps) {
  return (
    <div className="version-pickers">
      <VersionSelect label="From version" value={pair.from} history={history} onChange={(from) => onPick({ ...pair, from })} />
      <VersionSelect label="To version" value={pair.to} history={history} onChange={(to) => onPick({ ...pair, to })} />
    </div>
  );
}
