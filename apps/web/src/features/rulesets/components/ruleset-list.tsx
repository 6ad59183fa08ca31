// The rule sets at their active versions, every status unless narrowed to one: name, status, active version,
// tags and how many pins are behind. The API lists active sets unless asked, so the page asks for what it shows.
import { useId, useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useRulesets } from '../api/get-rulesets.ts';
import type { Ruleset, RulesetListStatus } from '../api/types.ts';
import { newerCountLabel } from '../pin-labels.ts';
import { StatusBadge } from './status-badge.tsx';
import { TagList } from './tag-list.tsx';

function RulesetItem({ set, href }: { set: Ruleset; href: string }) {
  const newer = newerCountLabel(set.newer_pins);
  return (
    <li className="ruleset-item">
      <div className="ruleset-item-head">
        <a href={href} className="ruleset-item-name">
          {set.name}
        </a>
        <StatusBadge status={set.status} />
        {newer !== null && <span className="badge badge-newer">{newer}</span>}
      </div>
      <p className="muted ruleset-item-meta">
        <code>{set.id}</code> · {set.active_version === null ? 'no active version' : `active version ${set.active_version}`} ·{' '}
        {set.pins.length === 1 ? '1 pin' : `${set.pins.length} pins`}
      </p>
      {set.description && <p className="ruleset-item-description">{set.description}</p>}
      <TagList tags={set.tags} />
    </li>
  );
}

const SHOWN: { value: RulesetListStatus; label: string }[] = [
  { value: 'all', label: 'Every status' },
  { value: 'active', label: 'Active' },
  { value: 'test', label: 'Test' },
  { value: 'draft', label: 'Draft' },
  { value: 'disabled', label: 'Disabled' },
  { value: 'archived', label: 'Archived' },
];

export function RulesetList({ rulesetHref }: { rulesetHref: (id: string) => string }) {
  const [status, setStatus] = useState<RulesetListStatus>('all');
  const rulesets = useRulesets(status);
  const fieldId = useId();
  return (
    <section className="panel" aria-labelledby="rulesets-heading">
      <div className="panel-head">
        <PageHeading id="rulesets-heading" title="Rule sets" />
        <div className="ruleset-filter">
          <label htmlFor={fieldId}>Show</label>
          <select id={fieldId} className="select" value={status} onChange={(event) => setStatus(event.target.value as RulesetListStatus)}>
            {SHOWN.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      {rulesets.isPending && <Loading label="Loading the rule sets" />}
      {rulesets.isError && <ErrorNotice error={rulesets.error} />}
      {rulesets.isSuccess && rulesets.data.length === 0 && (
        <Empty>{status === 'all' ? 'No rule sets yet. Agents name a set in their agent document.' : `No ${status} rule sets.`}</Empty>
      )}
      {rulesets.isSuccess && rulesets.data.length > 0 && (
        // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
        <ul role="list" aria-label="Rule sets" className="rulesets">
          {rulesets.data.map((set) => (
            <RulesetItem key={set.id} set={set} href={rulesetHref(set.id)} />
          ))}
        </ul>
      )}
    </section>
  );
}
