// Picks the policy document, the version to simulate and an optional candidate version beside it.
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useVersions } from '../api/get-versions.ts';
import type { PolicySummary, PolicyVersion } from '../api/types.ts';

export interface PolicyPick {
  document: string | null;
  sequence: number | null;
  candidate: number | null;
}

function versionLabel(v: PolicyVersion): string {
  const marks = [v.running ? 'running' : null, v.rejected ? 'rejected' : null].filter(Boolean).join(', ');
  return `Version ${v.sequence}${marks ? ` (${marks})` : ''}: ${v.reason}`;
}

export function PolicyPicker({ policies, pick, onPick }: { policies: PolicySummary[]; pick: PolicyPick; onPick: (p: PolicyPick) => void }) {
  return (
    <div className="sim-pickers">
      <label className="field">
        Policy document
        <select value={pick.document ?? ''} onChange={(e) => onPick({ document: e.target.value, sequence: null, candidate: null })}>
          {policies.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id}
            </option>
          ))}
        </select>
      </label>
      {pick.document !== null && <VersionSelects document={pick.document} pick={pick} onPick={onPick} />}
    </div>
  );
}

function VersionSelects({ document, pick, onPick }: { document: string; pick: PolicyPick; onPick: (p: PolicyPick) => void }) {
  const versions = useVersions(document);
  if (versions.isPending) return <Loading label="Loading the versions" />;
  if (versions.isError) return <ErrorNotice error={versions.error} />;
  const usable = [...versions.data].reverse();
  return (
    <>
      <label className="field">
        Policy version
        <select value={pick.sequence ?? ''} onChange={(e) => onPick({ ...pick, sequence: Number(e.target.value) })}>
          {usable.map((v) => (
            <option key={v.sequence} value={v.sequence}>
              {versionLabel(v)}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        Candidate version
        <select
          value={pick.candidate ?? ''}
          onChange={(e) => onPick({ ...pick, candidate: e.target.value === '' ? null : Number(e.target.value) })}
        >
          <option value="">none</option>
          {usable.map((v) => (
            <option key={v.sequence} value={v.sequence}>
              {versionLabel(v)}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}
