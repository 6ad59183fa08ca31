// Compare with pasted text: the decision diff of a policy's running version against a text a person pastes
// (POST /v1/policies/diff, docs/review.md), over every class of tools the two tell apart. Nothing is saved.
import { type FormEvent, useId, useState } from 'react';
import { ErrorNotice, Loading } from '../../../components/query-state.tsx';
import { ApiError } from '../../../lib/api/api-error.ts';
import { useDocument } from '../api/get-document.ts';
import { usePolicyDiff } from '../api/post-policy-diff.ts';
import { pastedRefusalOf, problemLine } from '../pasted-problems.ts';
import { withArrows } from '../review-words.ts';

export function ComparePasted({ id }: { id: string }) {
  const running = useDocument(id);
  const diff = usePolicyDiff();
  const [text, setText] = useState('');
  const fieldId = useId();
  const compare = (event: FormEvent) => {
    event.preventDefault();
    if (running.data) diff.mutate({ running: running.data.text, candidate: text });
  };
  const refusal = diff.error instanceof ApiError ? pastedRefusalOf(diff.error.details) : undefined;
  return (
    <section className="panel" aria-labelledby="compare-pasted-heading">
      <h2 id="compare-pasted-heading" className="panel-title">
        Compare with pasted text
      </h2>
      <form className="stack" onSubmit={compare}>
        <label htmlFor={fieldId} className="field">
          Pasted policy (JSON)
        </label>
        <textarea
          id={fieldId}
          className="editor-text"
          rows={8}
          spellCheck={false}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <div className="actions">
          <button type="submit" className="button" disabled={!running.isSuccess || text.trim() === '' || diff.isPending}>
            {diff.isPending ? 'Comparing…' : 'Compare with the running version'}
          </button>
        </div>
      </form>
      {running.isError && <ErrorNotice error={running.error} />}
      {diff.isPending && <Loading label="Comparing the decisions" />}
      {refusal ? (
        <div role="alert">
          <p className="state state-error">
            {refusal.side === 'candidate' ? 'The pasted text' : 'The running version'} is not a valid policy:
          </p>
          {/* biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers */}
          <ul role="list" aria-label="Problems of the pasted text">
            {refusal.problems.map((p) => (
              <li key={problemLine(p)}>
                <code>{problemLine(p)}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        diff.isError && <ErrorNotice error={diff.error} />
      )}
      {diff.isSuccess &&
        (diff.data.entries.length === 0 ? (
          <p className="state state-empty">No call changes decision.</p>
        ) : (
          // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
          <ul role="list" aria-label="Decision changes from the running version" className="impact-subjects">
            {diff.data.entries.map((entry) => (
              <li key={entry.words}>
                <code>{withArrows(entry.words)}</code>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
