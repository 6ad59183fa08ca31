// The one summary of what a change does, at the top of the comparison: its direction, how many tools and regions
// of calls change decision, and each change's words once (docs/console.md, "Reviewing a change"). The details
// below it (rules, the decision map of the changed tools) never repeat these sentences.
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import type { VersionPair } from '../api/default-pair.ts';
import { useDiff } from '../api/get-diff.ts';
import { useImpactPreview } from '../api/get-impact-preview.ts';
import type { DocumentDiff, ImpactPreview } from '../api/types.ts';
import { countWords, directionWords, previewChanges } from '../review-summary.ts';
import { withArrows } from '../review-words.ts';
import { AnalysisWait } from './analysis-wait.tsx';

export function ChangeSummary({ id, pair, isPolicy }: { id: string; pair: VersionPair; isPolicy: boolean }) {
  return (
    <section className="impact change-summary" aria-label="Summary of the change">
      {pair.from === pair.to ? (
        <p className="impact-verdict">Version {pair.to} compared with itself: nothing changes.</p>
      ) : isPolicy ? (
        <PolicySummary id={id} pair={pair} />
      ) : (
        <DocumentSummary id={id} pair={pair} />
      )}
    </section>
  );
}

function Heading({ pair, words, widens }: { pair: VersionPair; words: string; widens: boolean }) {
  return (
    <p className={widens ? 'impact-verdict impact-widens' : 'impact-verdict'}>
      Version {pair.to} against version {pair.from}: {words}
    </p>
  );
}

/** A rule set, sheet, agent or catalogue: what the edit seam says the "to" version widens. */
function DocumentSummary({ id, pair }: { id: string; pair: VersionPair }) {
  const diff = useDiff(id, pair.from, pair.to);
  if (diff.isPending) return <Loading label="Weighing the change" />;
  if (diff.isError) return <ErrorNotice error={diff.error} />;
  const { widens_security: widens, widened_subjects: subjects } = diff.data.impact;
  return (
    <>
      <Heading pair={pair} widens={widens} words={widens ? 'widens security' : 'does not widen security'} />
      {subjects.length > 0 && (
        <>
          <p className="muted">{subjects.length === 1 ? '1 widened subject' : `${subjects.length} widened subjects`}</p>
          <Changes items={subjects} />
        </>
      )}
    </>
  );
}

/** A policy: the impact preview over the agents' catalogues, its direction joined with the decision diff's. */
function PolicySummary({ id, pair }: { id: string; pair: VersionPair }) {
  const diff = useDiff(id, pair.from, pair.to);
  const preview = useImpactPreview(id, pair.to, pair.from);
  const error = diff.error ?? preview.error;
  if (error) return <ErrorNotice error={error} />;
  if (!preview.isSuccess) return <AnalysisWait id={id} from={pair.from} to={pair.to} />;
  if (!diff.isSuccess) return <Loading label="Working out which calls change" />;
  return <PolicyVerdict pair={pair} diff={diff.data} preview={preview.data} />;
}

function PolicyVerdict({ pair, diff, preview }: { pair: VersionPair; diff: DocumentDiff; preview: ImpactPreview }) {
  const changes = previewChanges(preview);
  // The decision diff covers every tool a rule could name, the preview only the catalogues' tools: a widening
  // only outside them still widens, and the summary says where.
  const widensElsewhere = diff.impact.widens_security && !preview.widens;
  const widens = preview.widens || diff.impact.widens_security;
  return (
    <>
      <Heading pair={pair} widens={widens || preview.depends} words={directionWords({ ...preview, widens })} />
      <p className="muted">
        {countWords(changes)} (
        {preview.source === 'agents' ? 'the catalogues of the agents that use the policy' : 'the workspace’s catalogue'}).
      </p>
      {changes.entries.length > 0 && <Changes items={changes.entries.map((e) => e.words)} />}
      {widensElsewhere && (
        <>
          <p className="muted">Widens calls of tools no catalogue lists:</p>
          <Changes items={diff.impact.widened_subjects} label="Widened outside the catalogues" />
        </>
      )}
    </>
  );
}

function Changes({ items, label = 'Changes' }: { items: readonly string[]; label?: string }) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label={label} className="impact-subjects">
      {items.map((words) => (
        <li key={words}>
          <code>{withArrows(words)}</code>
        </li>
      ))}
    </ul>
  );
}
