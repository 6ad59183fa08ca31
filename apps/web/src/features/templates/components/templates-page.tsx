// Templates: the engine's gallery, a parameter form for the chosen one, and a new policy draft from it.
import { listTemplates } from '@tollgate/engine';
import { useState } from 'react';
import { PageHeading } from '../../../components/page-heading.tsx';
import { TemplateForm } from './template-form.tsx';
import { TemplateGallery } from './template-gallery.tsx';

const TEMPLATES = listTemplates();

export function TemplatesPage({ canCreate, editHref }: { canCreate: boolean; editHref: (id: string) => string }) {
  const [chosen, setChosen] = useState<string | null>(null);
  const template = TEMPLATES.find((t) => t.name === chosen);
  return (
    <div className="stack">
      <section className="panel" aria-labelledby="templates-heading">
        <PageHeading id="templates-heading" title="Policy templates" />
        <p className="muted">
          A template is a ready-made policy for a common kind of agent. Its draft never activates anything by itself: it is saved through
          the edit seam like any edit. Compare its actions with your tools' before it runs.
        </p>
        <TemplateGallery templates={TEMPLATES} chosen={chosen} onChoose={setChosen} />
      </section>
      {template !== undefined && (
        <section className="panel" aria-label={`${template.title} draft`}>
          <h2 className="panel-title">{template.title}</h2>
          <TemplateForm key={template.name} template={template} canCreate={canCreate} editHref={editHref} />
        </section>
      )}
    </div>
  );
}
