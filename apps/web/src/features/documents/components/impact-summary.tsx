// What the "to" version widens over the "from" version, from the API's diff.
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import type { VersionPair } from '../api/default-pair.ts';
import { useDiff } from '../api/get-diff.ts';

export function ImpactSummary({ id, pair }: { id: string; pair: VersionPair }) {
  const diff = useDiff(id, pair.from, pair.to);
  return (
    <section className="impact" aria-label="Impact">
      {diff.isPending && <Loading label="Weighing the change" />}
      {diff.isError && <ErrorNotice error={diff.error} />}
      {diff.isSuccess &&
        (diff.data.impact.widens_security ? (
          <>
            <p className="impact-verdict impact-widens">Widens security</p>
            {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
            <ul role="list" aria-label="Widened subjects" className="impact-subjects">
              {diff.data.impact.widened_subjects.map((subject) => (
                <li key={subject}>
                  <code>{subject}</code>
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="impact-verdict">Does not widen security</p>
        ))}
    </section>
  );
}
