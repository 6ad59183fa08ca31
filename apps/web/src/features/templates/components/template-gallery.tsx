// The templates as cards; choosing one opens its parameter form.
import type { TemplateInfo } from '@tollgate/engine';

interface TemplateGalleryProps {
  templates: readonly TemplateInfo[];
  chosen: string | null;
  onChoose: (name: string) => void;
}

export function TemplateGallery({ templates, chosen, onChoose }: TemplateGalleryProps) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
    <ul role="list" aria-label="Templates" className="template-gallery">
      {templates.map((template) => (
        <li key={template.name} className={template.name === chosen ? 'template-card template-card-chosen' : 'template-card'}>
          <h3 className="template-title">{template.title}</h3>
          <p className="muted">{template.description}</p>
          <button
            type="button"
            className="button"
            aria-pressed={template.name === chosen}
            // The visible text starts the name (label in name, WCAG 2.5.3); the template's title follows.
            aria-label={`${template.name === chosen ? 'Chosen' : 'Use this template'}: ${template.title}`}
            onClick={() => onChoose(template.name)}
          >
            {template.name === chosen ? 'Chosen' : 'Use this template'}
          </button>
        </li>
      ))}
    </ul>
  );
}
