// One rule of the sheet as a row of the form: its action and every key a rule may have (docs/rule-sheets.md),
// the engine's problems with it beside it, and a button to remove it.
import type { Diagnostic, LintCatalogue } from '@tollgate/engine';
import { memo, type ReactNode, useId } from 'react';
import type { FieldEdit } from '../edit-sheet-yaml.ts';
import type { RuleRow as Row } from '../read-rule-rows.ts';
import { ActionField } from './action-field.tsx';
import { ChecksField } from './checks-field.tsx';
import { ConditionsField } from './conditions-field.tsx';
import { DraftInput, normalizeNames, splitNames } from './draft-input.tsx';
import { RowProblems } from './row-problems.tsx';

interface RuleRowProps {
  row: Row;
  catalogue: LintCatalogue | undefined;
  problems: readonly Diagnostic[];
  /** Applies an edit to the YAML of the rule at `index`; answers why it could not. */
  onEdit: (index: number, edit: FieldEdit) => string | undefined;
  onRemoveKey: (index: number, key: string) => void;
  onRemove: (index: number) => void;
  onJump: (line: number) => void;
}

/**
 * A row renders again only when its rule's text, place or problems change: a keystroke in one row of a
 * 200-rule sheet re-renders that row, not every row (each holds a select of the catalogue's tools).
 */
export const RuleRow = memo(RuleRowView, (a, b) => {
  return (
    a.catalogue === b.catalogue &&
    a.onEdit === b.onEdit &&
    a.onRemoveKey === b.onRemoveKey &&
    a.onRemove === b.onRemove &&
    a.onJump === b.onJump &&
    a.row.index === b.row.index &&
    a.row.source === b.row.source &&
    a.row.lines.from === b.row.lines.from &&
    a.row.lines.to === b.row.lines.to &&
    sameProblems(a.problems, b.problems)
  );
});

function sameProblems(a: readonly Diagnostic[], b: readonly Diagnostic[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((p, i) => {
    const q = b[i] as Diagnostic;
    return p.code === q.code && p.severity === q.severity && p.message === q.message && p.line === q.line && p.column === q.column;
  });
}

function RuleRowView({ row, catalogue, problems, onEdit: editRule, onRemoveKey, onRemove, onJump }: RuleRowProps) {
  const id = useId();
  const onEdit = (edit: FieldEdit) => editRule(row.index, edit);
  const number = row.index + 1;
  const f = row.fields;
  const failing = problems.some((p) => p.severity === 'error');
  const names = (key: 'requires' | 'after' | 'not_after', label: string, hint: string) => (
    <Field id={`${id}-${key}`} label={label}>
      <DraftInput
        id={`${id}-${key}`}
        value={(f[key] ?? []).join(', ')}
        normalize={normalizeNames}
        onValue={(typed) => onEdit({ key, value: splitNames(typed) })}
        placeholder={hint}
        spellCheck={false}
      />
    </Field>
  );
  return (
    <fieldset className={failing ? 'rules-row rules-row-refused' : 'rules-row'}>
      <legend className="rules-row-legend">
        Rule {number}
        {f.action !== '' && <code> · {f.action}</code>}
        <span className="muted"> · line {row.lines.from}</span>
      </legend>
      <RowProblems label={`Problems with rule ${number}`} problems={problems} onJump={onJump} />
      {row.editable ? (
        <div className="rules-fields">
          <Field id={`${id}-action`} label="Action">
            <ActionField id={`${id}-action`} value={f.action} catalogue={catalogue} onValue={(value) => onEdit({ key: 'action', value })} />
          </Field>
          {names('requires', 'Requires', 'contexts, such as supervisor_approved')}
          <div className="rules-field rules-field-wide">
            <span className="editor-label">When</span>
            <ConditionsField conditions={f.when ?? []} onConditions={(value) => onEdit({ key: 'when', value })} />
          </div>
          <Toggle label="Never" checked={f.never === true} onToggle={(value) => onEdit({ key: 'never', value })} />
          <Toggle
            label="Requires confirmation"
            checked={f.requires_confirmation === true}
            onToggle={(value) => onEdit({ key: 'requires_confirmation', value })}
          />
          <Field id={`${id}-confirmation`} label="Confirmation words">
            <DraftInput
              id={`${id}-confirmation`}
              value={f.confirmation ?? ''}
              onValue={(value) => onEdit({ key: 'confirmation', value })}
              placeholder="Close this account?"
            />
          </Field>
          {names('after', 'After', 'tools, such as charge_card')}
          {names('not_after', 'Not after', 'tools, such as refund_card')}
          <Field id={`${id}-at-most`} label="At most">
            <DraftInput
              id={`${id}-at-most`}
              value={f.at_most ?? ''}
              onValue={(value) => onEdit({ key: 'at_most', value })}
              inputMode="numeric"
              placeholder="calls per session"
            />
          </Field>
          <div className="rules-field rules-field-wide">
            <span className="editor-label">Checks</span>
            <ChecksField checks={f.check ?? []} onChecks={(value) => onEdit({ key: 'check', value })} />
          </div>
          {row.otherKeys.map((key) => (
            <p key={key} className="rules-field rules-field-wide rules-other-key">
              <span>
                <code>{key}</code> is not a key of a rule.
              </span>
              <button type="button" className="button" onClick={() => onRemoveKey(row.index, key)}>
                Remove {key}
              </button>
            </p>
          ))}
        </div>
      ) : (
        <p className="muted">This rule is not written as a block mapping, so the form cannot edit it; change it in the YAML.</p>
      )}
      <div className="actions">
        <button type="button" className="button button-danger" onClick={() => onRemove(row.index)}>
          Remove rule {number}
        </button>
      </div>
    </fieldset>
  );
}

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="rules-field">
      <label htmlFor={id} className="editor-label">
        {label}
      </label>
      {children}
    </div>
  );
}

function Toggle({ label, checked, onToggle }: { label: string; checked: boolean; onToggle: (value: boolean) => void }) {
  return (
    <label className="rules-field rules-toggle">
      <input type="checkbox" checked={checked} onChange={(event) => onToggle(event.target.checked)} />
      <span>{label}</span>
    </label>
  );
}
