// The three-way view a conflicting save opens: what they changed, what you changed, and the merge to resubmit.
import { useRef, useState } from 'react';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { CodeEditor, type CodeEditorHandle } from '../../../lib/monaco/code-editor.tsx';
import { DiffEditor } from '../../../lib/monaco/diff-editor.tsx';
import { type MergeSources, useMergeSources } from '../api/get-merge-sources.ts';
import { hasConflictMarkers, mergeThree } from '../merge-three.ts';

type Language = 'yaml' | 'json' | 'plaintext';
const NO_PROBLEMS: [] = [];

export interface MergeViewProps {
  id: string;
  /** The version the conflicting edit was based on. */
  base: number | null;
  mine: string;
  saving: boolean;
  language: Language;
  resubmit(text: string, basedOn: number): void;
}

export function MergeView({ id, base, mine, saving, language, resubmit }: MergeViewProps) {
  const sources = useMergeSources(id, base);
  return (
    <section className="panel merge-view" aria-labelledby="merge-heading">
      <h2 id="merge-heading" className="panel-title">
        Three-way merge
      </h2>
      {sources.isPending && <Loading label="Loading their running version and your base" />}
      {sources.isError && <ErrorNotice error={sources.error} />}
      {sources.isSuccess && (
        <MergePanes
          key={sources.data.theirs.sequence}
          sources={sources.data}
          mine={mine}
          saving={saving}
          language={language}
          resubmit={resubmit}
        />
      )}
    </section>
  );
}

interface MergePanesProps {
  sources: MergeSources;
  mine: string;
  saving: boolean;
  language: Language;
  resubmit(text: string, basedOn: number): void;
}

function MergePanes({ sources, mine, saving, language, resubmit }: MergePanesProps) {
  const { theirs } = sources;
  const baseText = sources.base?.text ?? '';
  const baseLabel = sources.base === null ? 'nothing (a first version)' : `your base, version ${sources.base.sequence}`;
  // The merge is computed once, when the view opens; from then on the text is the person's.
  const [initial] = useState(() => mergeThree(baseText, mine, theirs.text));
  const [merged, setMerged] = useState(initial.text);
  const editor = useRef<CodeEditorHandle>(null);
  const replace = (text: string) => {
    editor.current?.setText(text);
    setMerged(text);
  };
  const marked = hasConflictMarkers(merged);
  return (
    <div className="stack">
      <p>
        Version {theirs.sequence} runs now; you edited from {baseLabel}.{' '}
        {initial.conflicts === 0
          ? 'Your changes and theirs touch different lines, so they are merged below.'
          : `${initial.conflicts} ${initial.conflicts === 1 ? 'place was' : 'places were'} changed by both; pick between the marked texts below.`}
      </p>
      <div className="merge-grid">
        <figure className="code-figure">
          <figcaption className="compiled-caption">
            Their changes: {baseLabel} → running version {theirs.sequence}
          </figcaption>
          <DiffEditor
            original={baseText}
            modified={theirs.text}
            language={language}
            originalLabel={`Base, ${baseLabel}`}
            modifiedLabel={`Their running version ${theirs.sequence}`}
          />
        </figure>
        <figure className="code-figure">
          <figcaption className="compiled-caption">Your changes: {baseLabel} → your text</figcaption>
          <DiffEditor
            original={baseText}
            modified={mine}
            language={language}
            originalLabel={`Base, ${baseLabel}`}
            modifiedLabel="Your text"
          />
        </figure>
      </div>
      <figure className="code-figure">
        <figcaption className="compiled-caption">The merge, editable</figcaption>
        <CodeEditor
          ref={editor}
          initialText={initial.text}
          language={language}
          diagnostics={NO_PROBLEMS}
          label="Merged text"
          onChange={setMerged}
        />
      </figure>
      {marked && (
        <p className="state state-error" role="alert">
          The merge still holds conflict markers (&lt;&lt;&lt;&lt;&lt;&lt;&lt; yours, =======, &gt;&gt;&gt;&gt;&gt;&gt;&gt; theirs); keep
          one side of each and remove the markers.
        </p>
      )}
      <div className="actions">
        <button type="button" className="button" onClick={() => replace(theirs.text)}>
          Start from theirs
        </button>
        <button type="button" className="button" onClick={() => replace(mine)}>
          Start from yours
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={saving || marked}
          onClick={() => resubmit(merged, theirs.sequence)}
        >
          {saving ? 'Saving…' : `Resubmit based on version ${theirs.sequence}`}
        </button>
      </div>
    </div>
  );
}
