// A stored (or new) example suite's text beside its live results, and saving it with a reason.
import { type FormEvent, useDeferredValue, useId, useMemo, useState } from 'react';
import { DraftNotice, DraftOffer } from '../../../components/draft-offer.tsx';
import { Empty } from '../../../components/query-state.tsx';
import { useDraft } from '../../../hooks/use-draft.ts';
import type { StoredSuite } from '../../../lib/example-suites.ts';
import { runExamples } from '../run-examples.ts';
import { ExampleResults } from './example-results.tsx';

/** Where a new suite starts: the shape `tollgate policy test --examples` reads, with no calls yet. */
const NEW_SUITE = `{
  "tools": [],
  "examples": []
}
`;

interface SuiteEditorProps {
  suiteId: string;
  policyText: string;
  stored: StoredSuite | null;
  canSave: boolean;
  saving: boolean;
  onSave: (content: string, reason: string) => void;
}

export function SuiteEditor({ suiteId, policyText, stored, canSave, saving, onSave }: SuiteEditorProps) {
  // null: the policy has no suite and none is being written.
  const [draft, setDraft] = useState<string | null>(stored?.text ?? null);
  // Unsaved suite text is kept like an editor's (hooks/use-draft.ts); a stored version remounts this editor.
  const baseText = stored?.text ?? NEW_SUITE;
  const kept = useDraft({ id: suiteId, base: stored?.sequence ?? null, text: draft ?? baseText, baseText, enabled: canSave });
  const offer = kept.offer !== null && (
    <DraftOffer
      draft={kept.offer}
      opened={{ version: stored?.sequence ?? null, text: stored?.text ?? '' }}
      language="json"
      onRestore={() => setDraft(kept.restore()?.text ?? draft)}
      onDiscard={kept.discard}
      savesAgainstBase={false}
    />
  );
  if (draft === null) {
    return (
      <>
        {offer}
        <Empty>
          This policy has no example suite yet: calls with the decisions you expect, stored as <code>{suiteId}</code> and run live as you
          edit.{' '}
          {canSave && (
            <button type="button" className="button" onClick={() => setDraft(NEW_SUITE)}>
              Create an example suite
            </button>
          )}
        </Empty>
      </>
    );
  }
  return (
    <>
      {offer}
      <DraftNotice kept={kept.kept} />
      <SuiteText {...{ suiteId, policyText, stored, canSave, saving, onSave }} draft={draft} onDraft={setDraft} />
    </>
  );
}

function SuiteText({
  suiteId,
  policyText,
  stored,
  canSave,
  saving,
  onSave,
  draft,
  onDraft,
}: SuiteEditorProps & { draft: string; onDraft: (t: string) => void }) {
  const textId = useId();
  const reasonId = useId();
  const [reason, setReason] = useState('');
  // Deferred, so deciding every example never delays a keystroke.
  const policy = useDeferredValue(policyText);
  const examples = useDeferredValue(draft);
  const run = useMemo(() => runExamples(policy, examples), [policy, examples]);
  const changed = draft !== stored?.text;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (changed && reason.trim() !== '') onSave(draft, reason.trim());
  };
  return (
    <>
      {run.state === 'suite_invalid' && (
        // biome-ignore lint/a11y/noRedundantRoles: list-style none drops the implicit role in some browsers
        <ul role="list" aria-label="Suite problems" className="problems">
          {run.problems.map((problem) => (
            <li key={problem} className="problem problem-error">
              {problem}
            </li>
          ))}
        </ul>
      )}
      {run.state === 'policy_invalid' && <p className="state">The policy has errors; the examples run again once they are fixed.</p>}
      {run.state === 'ran' && <ExampleResults report={run.report} />}
      <details className="examples-suite" open={stored === null}>
        <summary>Example suite (JSON)</summary>
        <label htmlFor={textId} className="editor-label">
          Example suite
        </label>
        <textarea
          id={textId}
          className="input examples-text"
          value={draft}
          onChange={(event) => onDraft(event.target.value)}
          readOnly={!canSave}
          spellCheck={false}
          rows={10}
        />
        <p className="muted">
          {stored === null ? (
            <>
              Not stored yet; storing creates <code>{suiteId}</code>.
            </>
          ) : (
            <>
              <code>{suiteId}</code>, version {stored.sequence}
              {changed ? ', with your changes' : ''}.
            </>
          )}
        </p>
        {canSave && (
          <form className="save-form" onSubmit={submit} aria-label="Store the example suite">
            <label htmlFor={reasonId} className="editor-label">
              Reason for the examples edit
            </label>
            <input
              id={reasonId}
              className="input save-reason"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              maxLength={2000}
              placeholder="Which calls and why"
            />
            <button type="submit" className="button button-primary" disabled={saving || !changed || reason.trim() === ''}>
              {saving ? 'Storing…' : 'Store the example suite'}
            </button>
          </form>
        )}
      </details>
    </>
  );
}
