// The console's banner while the document store holds damage, each damaged file named: what is damaged is
// refused, never replaced with a guess (docs/store.md, "Faults and what to do").
import { useHealth } from '../api/get-health.ts';

export function StoreHealthBanner() {
  const { data } = useHealth();
  if (data?.status !== 'degraded') return null;
  return (
    <section className="state state-error" role="alert" aria-label="Document store damage">
      <p>
        The document store found damage. Damaged versions are refused, never replaced; run <code>tollgate store check</code> on the data
        folder.
      </p>
      <ul>
        {(data.problems ?? []).map((p) => (
          <li key={`${p.id}\n${p.code}\n${p.message}`}>
            <code>{p.code}</code> {p.message}
          </li>
        ))}
      </ul>
    </section>
  );
}
