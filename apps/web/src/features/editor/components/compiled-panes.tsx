// What a sheet compiles to, read-only: the Colang, the rulebook JSON and the catalogue overlay JSON.

import { ScrollPane } from '../../../components/scroll-pane.tsx';
import type { CompiledOutputs } from '../check-document.ts';

const PANES: { key: keyof CompiledOutputs; label: string }[] = [
  { key: 'colang', label: 'Colang' },
  { key: 'rulebook', label: 'Rulebook' },
  { key: 'overlay', label: 'Overlay' },
];

export function CompiledPanes({ outputs }: { outputs: CompiledOutputs | null }) {
  return (
    <div className="compiled-panes">
      {PANES.map((pane) => (
        <figure key={pane.key} className="code-figure compiled-pane">
          <figcaption className="compiled-caption">{pane.label}</figcaption>
          <ScrollPane label={pane.label} className="document-text compiled-text">
            {outputs === null ? 'The sheet is refused; nothing compiled until its problems are fixed.' : outputs[pane.key]}
          </ScrollPane>
        </figure>
      ))}
    </div>
  );
}
