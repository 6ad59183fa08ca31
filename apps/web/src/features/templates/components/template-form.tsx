// A chosen template's parameters, checked by the engine as they are typed, a preview of the draft, and
// creating it as a new policy document through the edit seam.
import type { TemplateInfo } from '@tollgate/engine';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { ErrorNotice } from '../../../components/query-state.tsx';
import { ScrollPane } from '../../../components/scroll-pane.tsx';
import { useCreateDraft } from '../api/post-draft.ts';
import { buildDraft, checkDraftName, draftId } from '../draft.ts';
import { DraftOutcome } from './draft-outcome.tsx';
import { ParameterField } from './parameter-field.tsx';

interface TemplateFormProps {
  template: TemplateInfo;
  canCreate: boolean;
  editHref: (id: string) => string;
}

export function TemplateForm({ template, canCreate, editHref }: TemplateFormProps) {
  const nameId = useId();
  const reasonId = useId();
  const [params, setParams] = useState(() => Object.fromEntries(template.parameters.map((p) => [p.name, p.default])));
  const [name, setName] = useState(template.name);
  const [reason, setReason] = useState(`A new policy from the ${template.title} template`);
  const draft = useMemo(() => buildDraft(template.name, params), [template.name, params]);
  const nameProblem = checkDraftName(name);
  const create = useCreateDraft();
  const id = draftId(name);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!draft.ok || nameProblem !== null || reason.trim() === '') return;
    create.mutate({ id, content: draft.text, examples: draft.examples, reason: reason.trim() });
  };

  return (
    <div className="template-form-layout">
      <form className="template-form stack" onSubmit={submit} aria-label={`Parameters of ${template.title}`}>
        <h3 className="panel-title">Parameters</h3>
        {template.parameters.map((parameter) => (
          <ParameterField
            key={parameter.name}
            parameter={parameter}
            value={params[parameter.name] ?? ''}
            problems={draft.ok ? undefined : draft.byParameter[parameter.name]}
            onChange={(value) => setParams((current) => ({ ...current, [parameter.name]: value }))}
          />
        ))}
        {!draft.ok && draft.general.map((problem) => <ErrorNotice key={problem} error={new Error(problem)} />)}
        <h3 className="panel-title">New document</h3>
        <div className="field">
          <label htmlFor={nameId}>Policy name</label>
          <input
            id={nameId}
            className="input"
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-invalid={nameProblem !== null}
            spellCheck={false}
          />
          <span className="muted">
            Creates <code>{id}</code>
          </span>
          {nameProblem !== null && <span className="field-error">{nameProblem}</span>}
        </div>
        <div className="field">
          <label htmlFor={reasonId}>Reason for the new policy</label>
          <input id={reasonId} className="input" value={reason} onChange={(event) => setReason(event.target.value)} required />
        </div>
        {canCreate ? (
          <button
            type="submit"
            className="button button-primary"
            disabled={!draft.ok || nameProblem !== null || reason.trim() === '' || create.isPending}
          >
            {create.isPending ? 'Creating…' : 'Create the draft'}
          </button>
        ) : (
          <p className="muted">Your role can preview drafts but not create documents.</p>
        )}
        {create.isError && <ErrorNotice error={create.error} />}
        {create.data !== undefined && create.variables !== undefined && (
          <DraftOutcome outcomes={create.data} id={create.variables.id} editHref={editHref(create.variables.id)} />
        )}
      </form>
      <figure className="code-figure template-preview" aria-label="Draft preview">
        <figcaption className="compiled-caption">Preview</figcaption>
        <ScrollPane label="Draft preview" className="document-text">
          {draft.ok ? draft.text : 'Fix the parameters to see the draft.'}
        </ScrollPane>
      </figure>
    </div>
  );
}
