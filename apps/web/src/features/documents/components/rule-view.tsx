// A policy change rule by rule: the rules added, removed and changed (same id, other content), each with the
// decision changes whose outcomes it gives (rule-changes.ts), then the unchanged ones.
import { useMemo } from 'react';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import type { VersionPair } from '../api/default-pair.ts';
import { useImpactPreview } from '../api/get-impact-preview.ts';
import { useVersion } from '../api/get-version.ts';
import type { DecisionDiffEntry } from '../api/types.ts';
import { previewChanges, ruleChangeWords } from '../review-summary.ts';
import { compareRules, type RuleChange, rulesOf } from '../rule-changes.ts';

const GROUPS = [
  { status: 'added', title: 'Added' },
  { status: 'removed', title: 'Removed' },
  { status: 'changed', title: 'Changed' },
] as const;

export function RuleView({ id, pair }: { id: string; pair: VersionPair }) {
  const from = useVersion(id, pair.from);
  const to = useVersion(id, pair.to);
  const preview = useImpactPreview(id, pair.to, pair.from);
  const error = from.error ?? to.error ?? preview.error;
  return (
    <section aria-labelledby="rule-view-heading">
      <h3 id="rule-view-heading" className="panel-subtitle">
        Rule by rule
      </h3>
      {error && <ErrorNotice error={error} />}
      {!error && (!from.isSuccess || !to.isSuccess || !preview.isSuccess) && <Loading label="Comparing the rules" />}
      {from.isSuccess && to.isSuccess && preview.isSuccess && (
        <RuleGroups from={from.data.text} to={to.data.text} entries={previewChanges(preview.data).entries} pair={pair} />
      )}
    </section>
  );
}

function RuleGroups({ from, to, entries, pair }: { from: string; to: string; entries: DecisionDiffEntry[]; pair: VersionPair }) {
  const compared = useMemo(() => {
    const a = rulesOf(from);
    const b = rulesOf(to);
    return a === null || b === null ? null : compareRules(a, b, entries);
  }, [from, to, entries]);
  if (compared === null) return <p className="muted">The rules cannot be compared: a version is not a JSON object.</p>;
  // Unchanged rules that decide other calls now are worth a line of their own; the rest are named together.
  const quiet = compared.unchanged.filter((r) => r.decisions.length === 0).map((r) => r.id);
  const moved = compared.unchanged.filter((r) => r.decisions.length > 0);
  return (
    <div className="rule-view">
      {GROUPS.map(({ status, title }) => (
        <RuleGroup key={status} title={`${title} in version ${pair.to}`} rules={compared[status]} />
      ))}
      <RuleGroup title="Unchanged, deciding other calls" rules={moved} />
      {quiet.length > 0 && <p className="muted">Unchanged: {quiet.join(', ')}</p>}
    </div>
  );
}

function RuleGroup({ title, rules }: { title: string; rules: readonly RuleChange[] }) {
  if (rules.length === 0) return null;
  return (
    <div>
      <p className="rule-group-title">
        {title} ({rules.length})
      </p>
      {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
      <ul role="list" aria-label={title} className="rule-changes">
        {rules.map((rule) => (
          <li key={rule.id}>
            <code>{rule.id}</code>
            {rule.decisions.length === 0 ? (
              <span className="muted"> decides no call differently</span>
            ) : (
              <ul aria-label={`Decision changes of ${rule.id}`}>
                {rule.decisions.map((entry) => (
                  <li key={entry.words}>{ruleChangeWords(entry)}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
