// The set's versions, newest first, each with its active and draft marks, author, reason and time; picking
// one shows its pins.

import { RelativeTime } from '../../../components/relative-time.tsx';
import type { RulesetVersionInfo } from '../api/types.ts';

interface VersionListProps {
  versions: readonly RulesetVersionInfo[];
  shown: number;
  onPick: (versionId: number) => void;
}

export function VersionList({ versions, shown, onPick }: VersionListProps) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ol role="list" aria-label="Set versions" className="history">
      {[...versions].reverse().map((v) => (
        <li key={v.version_id} className={v.version_id === shown ? 'version version-shown' : 'version'}>
          <div className="version-head">
            <button type="button" className="link-button" aria-pressed={v.version_id === shown} onClick={() => onPick(v.version_id)}>
              Version {v.version_id}
            </button>
            {v.active && <span className="badge badge-running">active</span>}
            {v.draft && <span className="badge badge-status-draft">draft</span>}
          </div>
          <p className="muted version-author">
            {v.author} · <RelativeTime className="version-time" at={v.created_at} />
          </p>
          <p className="version-reason">{v.reason}</p>
        </li>
      ))}
    </ol>
  );
}
