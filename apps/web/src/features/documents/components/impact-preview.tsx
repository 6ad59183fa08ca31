// The impact preview of a candidate policy version against the running one (or another version): the tools
// whose calls change decision, from what to what, and the regions in words (docs/review.md).
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { useImpactPreview } from '../api/get-impact-preview.ts';
import type { ImpactPreview } from '../api/types.ts';
import { withArrows } from '../review-words.ts';

interface ImpactPreviewProps {
  id: string;
  candidate: number;
  /** The version to compare with; the running one when null. */
  running?: number | null;
}

export function ImpactPreviewPanel({ id, candidate, running = null }: ImpactPreviewProps) {
  const preview = useImpactPreview(id, candidate, running);
  return (
    <section className="impact impact-preview" aria-label={`Preview of version ${candidate}`}>
      <h3 className="panel-subtitle">Impact preview</h3>
      {preview.isPending && <Loading label="Working out which calls change" />}
      {preview.isError && <ErrorNotice error={preview.error} />}
      {preview.isSuccess && <PreviewBody preview={preview.data} />}
    </section>
  );
}

function verdictOf(p: ImpactPreview): string {
  const parts = [p.widens && 'widens', p.narrows && 'narrows', p.depends && 'depends on arguments'].filter(Boolean);
  return parts.length === 0 ? 'No tool changes decision' : `Version ${p.candidate} ${parts.join(', ')} (against version ${p.running})`;
}

function PreviewBody({ preview }: { preview: ImpactPreview }) {
  return (
    <>
      <p className={preview.widens || preview.depends ? 'impact-verdict impact-widens' : 'impact-verdict'}>{verdictOf(preview)}</p>
      {preview.catalogues.map((k) => (
        <div key={k.id} className="impact-catalogue">
          <p className="muted">
            {k.id}
            {k.agents.length > 0 ? ` (agents ${k.agents.join(', ')})` : ' (no agent uses the policy)'}
          </p>
          {k.tools.length > 0 && (
            // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
            <ul role="list" aria-label="Tools that change decision" className="impact-subjects">
              {k.tools.map((t) => (
                <li key={t.tool}>
                  <strong>{t.tool}</strong> <span className="muted">({t.action})</span>
                  <ul aria-label={`Changes of ${t.tool}`}>
                    {t.changes.map((c) => (
                      <li key={c.words}>
                        <code>{withArrows(c.words)}</code>
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          )}
          {k.unchanged.length > 0 && <p className="muted">Unchanged: {k.unchanged.join(', ')}</p>}
        </div>
      ))}
    </>
  );
}
