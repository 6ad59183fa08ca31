// The texts of two versions in Monaco's diff editor, as stored or, with "Ignore formatting", both written in one
// canonical form so a re-serialised or re-indented text shows only its real change (canonical-text.ts).
import { useId, useMemo, useState } from 'react';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { DiffEditor } from '../../../lib/monaco/diff-editor.tsx';
import type { VersionPair } from '../api/default-pair.ts';
import { useVersion } from '../api/get-version.ts';
import { canonicalPair } from '../canonical-text.ts';

function languageOf(id: string): 'json' | 'yaml' | 'plaintext' {
  if (id.endsWith('.json')) return 'json';
  return /\.ya?ml$/.test(id) ? 'yaml' : 'plaintext';
}

export function VersionDiff({ id, pair }: { id: string; pair: VersionPair }) {
  const from = useVersion(id, pair.from);
  const to = useVersion(id, pair.to);
  const error = from.error ?? to.error;
  if (error) return <ErrorNotice error={error} />;
  if (!from.isSuccess || !to.isSuccess) return <Loading label="Loading the two versions" />;
  return <TextDiff language={languageOf(id)} pair={pair} original={from.data.text} modified={to.data.text} />;
}

interface TextDiffProps {
  language: 'json' | 'yaml' | 'plaintext';
  pair: VersionPair;
  original: string;
  modified: string;
}

function TextDiff({ language, pair, original, modified }: TextDiffProps) {
  const [ignoreFormatting, setIgnoreFormatting] = useState(false);
  const whyId = useId();
  const originalLabel = `Version ${pair.from}`;
  const modifiedLabel = `Version ${pair.to}`;
  const canonical = useMemo(
    () => canonicalPair(language, { label: originalLabel, text: original }, { label: modifiedLabel, text: modified }),
    [language, original, modified, originalLabel, modifiedLabel],
  );
  // A text that cannot be read keeps the raw diff, and the toggle says why.
  const shown = ignoreFormatting && canonical.ok ? canonical : { original, modified };
  return (
    <section className="stack" aria-label="Text diff">
      <div className="diff-options">
        <label className="check">
          <input
            type="checkbox"
            checked={ignoreFormatting && canonical.ok}
            disabled={!canonical.ok}
            aria-describedby={canonical.ok ? undefined : whyId}
            onChange={(event) => setIgnoreFormatting(event.target.checked)}
          />
          Ignore formatting
        </label>
        {canonical.ok ? (
          ignoreFormatting && (
            <span className="muted">
              Both versions read and written alike: 2-space indents, keys in version {pair.from}’s order, no comments.
            </span>
          )
        ) : (
          <span id={whyId} className="muted">
            The texts as stored: {canonical.why}.
          </span>
        )}
      </div>
      <DiffEditor
        original={shown.original}
        modified={shown.modified}
        language={language}
        originalLabel={originalLabel}
        modifiedLabel={modifiedLabel}
      />
    </section>
  );
}
