// Saving through the edit seam: a reason (required) and the Save button.
import { type FormEvent, type Ref, useId } from 'react';

interface SaveFormProps {
  reason: string;
  onReason: (reason: string) => void;
  onSave: () => void;
  saving: boolean;
  basedOn: number | null;
  reasonRef?: Ref<HTMLInputElement>;
}

export function SaveForm({ reason, onReason, onSave, saving, basedOn, reasonRef }: SaveFormProps) {
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave();
  };
  return (
    <form className="save-form" onSubmit={submit} aria-label="Save the edit">
      <label htmlFor={id} className="editor-label">
        Reason for the edit
      </label>
      <input
        id={id}
        ref={reasonRef}
        className="input save-reason"
        value={reason}
        onChange={(event) => onReason(event.target.value)}
        required
        maxLength={2000}
        placeholder="What changes and why"
      />
      <button type="submit" className="button button-primary" disabled={saving}>
        {saving ? 'Saving…' : 'Save'}
      </button>
      <span className="muted save-base">{basedOn === null ? 'a first version' : `based on version ${basedOn}`} · Ctrl/Cmd+S</span>
    </form>
  );
}
