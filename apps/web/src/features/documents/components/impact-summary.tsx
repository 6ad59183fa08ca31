// What the "to" version widens over the "from" version, from the API's diff; for a policy also every region
// of calls whose decision changes, narrowing ones too (its decision diff, docs/review.md).
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import type { VersionPair } from '../api/default-pair.ts';
import { useDiff } from '../api/get-diff.ts';
import { withArrows } from '../review-words.ts';

export function ImpactSummary({ id, pair }: { id: string; pair: VersionPair }) {
  const diff = useDiff(id, pair.from, pair.to);
  const changes = diff.data?.impact.changes ?? [];
  return (
    <section className="impact" aria-label="Impact">
      {diff.isPending && <Loading label="Weighing the change" />}
      {diff.isError && <ErrorNotice error={diff.error} />}
      {diff.isSuccess &&
        (diff.data.impact.widens_security ? (
          <>
            <p className="impact-verdict impact-widens">Widens security</p>
            <Subjects label="Widened subjects" items={diff.data.impact.widened_subjects} />
          </>
        ) : (
          <p className="impact-verdict">Does not widen security</p>
        ))}
      {changes.length > 0 && (
        <>
          <p className="muted">Calls decided differently:</p>
          <Subjects label="Decision changes" items={changes} />
        </>
      )}
    </section>
  );
}

function Subjects({ label, items }: { label: string; items: readonly string[] }) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label={label} className="impact-subjects">
      {items.map((subject) => (
        <li key={subject}>
          <code>{withArrows(subject)}</code>
        </li>
      ))}
    </ul>
  );
}
