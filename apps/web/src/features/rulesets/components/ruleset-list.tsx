// Every rule set at its active version: name, status, active version, tags and how many pins are behind.
import { Empty, ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useRulesets } from '../api/get-rulesets.ts';
import type { Ruleset } from '../api/types.ts';
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

export function RulesetList({ rulesetHref }: { rulesetHref: (id: string) => string }) {
  const rulesets = useRulesets();
  return (
    <section className="panel" aria-labelledby="rulesets-heading">
      <h2 id="rulesets-heading" className="panel-title">
        Rule sets
      </h2>
      {rulesets.isPending && <Loading label="Loading the rule sets" />}
      {rulesets.isError && <ErrorNotice error={rulesets.error} />}
      {rulesets.isSuccess && rulesets.data.length === 0 && <Empty>No rule sets yet. Agents name a set in their agent document.</Empty>}
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
