// One rule set: its versions, the pins of the version shown, re-pinning, lifecycle changes, a run panel and
// a link to its history with diffs.
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import { Loading } from '../../../components/query-state.tsx';
import { rulesetQueryOptions, useRuleset } from '../api/get-ruleset.ts';
import type { Ruleset } from '../api/types.ts';
import type { RulesetPermissions } from '../ruleset-permissions.ts';
import { LifecyclePanel } from './lifecycle-panel.tsx';
import { PinsTable } from './pins-table.tsx';
import { RulesetError } from './ruleset-error.tsx';
import { RunPanel } from './run-panel.tsx';
import { StatusBadge } from './status-badge.tsx';
import { TagList } from './tag-list.tsx';
import { VersionList } from './version-list.tsx';

export interface RulesetDetailProps {
  id: string;
  permissions: RulesetPermissions;
  listHref: string;
  historyHref: string;
  editHref: (document: string) => string;
  rulesetHref: (id: string) => string;
}

function SetHeader({ set, historyHref, rulesetHref }: { set: Ruleset; historyHref: string; rulesetHref: (id: string) => string }) {
  return (
    <header className="ruleset-header">
      <PageHeading title="Rule set" subject={set.name} badge={<StatusBadge status={set.status} />} />
      <p className="muted">
        <code>{set.id}</code> · {set.active_version === null ? 'no active version' : `active version ${set.active_version}`} ·{' '}
        <a href={historyHref}>History and diffs</a>
      </p>
      {set.description && <p>{set.description}</p>}
      <TagList tags={set.tags} />
      {set.status === 'archived' && (
        <p className="state state-error">
          Archived: runs are refused with RULESET_ARCHIVED
          {set.replaced_by && (
            <>
              ; agents are pointed at <a href={rulesetHref(set.replaced_by)}>{set.replaced_by}</a>
            </>
          )}
          .
        </p>
      )}
    </header>
  );
}

export function RulesetDetail({ id, permissions, listHref, historyHref, editHref, rulesetHref }: RulesetDetailProps) {
  // null shows the active version; picking or saving a version shows that one.
  const [versionId, setVersionId] = useState<number | null>(null);
  const set = useRuleset(id, versionId);
  const client = useQueryClient();
  const showDraft = (draft: Ruleset) => {
    client.setQueryData(rulesetQueryOptions(id, draft.version_id).queryKey, draft);
    setVersionId(draft.version_id);
  };
  return (
    <div className="ruleset-page">
      <a className="back-link" href={listHref}>
        All rule sets
      </a>
      {set.isPending && <Loading label="Loading the rule set" />}
      {set.isError && <RulesetError error={set.error} />}
      {set.data && (
        <>
          <SetHeader set={set.data} historyHref={historyHref} rulesetHref={rulesetHref} />
          <div className="ruleset-columns">
            <section className="panel" aria-labelledby="set-versions-heading">
              <h3 id="set-versions-heading" className="panel-title">
                Versions
              </h3>
              <VersionList versions={set.data.versions} shown={set.data.version_id} onPick={setVersionId} />
            </section>
            <div className="stack">
              {set.isPlaceholderData && <Loading label={`Loading version ${versionId}`} />}
              <PinsTable set={set.data} canRepin={permissions.canRepin} editHref={editHref} onSaved={showDraft} />
              {permissions.canSteward && <LifecyclePanel set={set.data} />}
              <RunPanel set={set.data} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
