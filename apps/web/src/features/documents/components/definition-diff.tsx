// The upstream definition a person authorizes, as a diff: the one pinned when the tool was last authorized
// (left; empty when none was) against the one the upstream listed last (right), as the agent would be shown
// them (docs/mcp.md, "Pinned tool definitions").
import { useId } from 'react';
import { RelativeTime } from '../../../components/relative-time.tsx';
import { definitionText, type UpstreamDefinition } from '../../../lib/definition-state.ts';
import { DiffEditor } from '../../../lib/monaco/diff-editor.tsx';
import { absoluteWords } from '../../../lib/relative-time.ts';

interface DefinitionDiffProps {
  /** The catalogue tool, for the heading. */
  tool: string;
  upstream: UpstreamDefinition & { seen: NonNullable<UpstreamDefinition['seen']> };
}

export function DefinitionDiff({ tool, upstream }: DefinitionDiffProps) {
  const headingId = useId();
  const listed = absoluteWords(Date.parse(upstream.seen.seen_at));
  const pinnedLabel = upstream.pinned === null ? 'No definition authorized yet' : 'Definition authorized';
  const seenLabel = `Definition listed since ${listed}`;
  return (
    <section className="definition-diff" aria-labelledby={headingId}>
      <h3 id={headingId} className="definition-diff-title">
        Definition of {tool}
      </h3>
      <p className="muted">
        Left: {upstream.pinned === null ? 'none authorized yet' : 'as authorized'}. Right: as{' '}
        <code>
          {upstream.server}/{upstream.tool}
        </code>{' '}
        lists it, first seen <RelativeTime at={upstream.seen.seen_at} />.
      </p>
      <DiffEditor
        original={definitionText(upstream.pinned?.definition)}
        modified={definitionText(upstream.seen.definition)}
        language="json"
        originalLabel={pinnedLabel}
        modifiedLabel={seenLabel}
        wrap
      />
    </section>
  );
}
