// One stored version in the history list.
import type { ReactNode } from 'react';
import { RelativeTime } from '../../../components/relative-time.tsx';
import type { DocumentVersion } from '../api/types.ts';

/** `children` are the version's actions (the history page's Activate). */
export function VersionItem({ version, children }: { version: DocumentVersion; children?: ReactNode }) {
  return (
    <li className="version">
      <div className="version-head">
        <strong>Version {version.sequence}</strong>
        {version.running && <span className="badge badge-running">running</span>}
        {version.rejected && <span className="badge badge-rejected_only">rejected</span>}
        <span className="muted version-author">
          {version.author.kind}: {version.author.label}
        </span>
        <RelativeTime className="muted version-time" at={version.created_at} />
      </div>
      <p className="version-reason">{version.reason}</p>
      <p className="muted version-based">{version.based_on === null ? 'based on nothing' : `based on version ${version.based_on}`}</p>
      {version.problems.length > 0 && <p className="version-problems">{version.problems.join(', ')}</p>}
      {children}
    </li>
  );
}
