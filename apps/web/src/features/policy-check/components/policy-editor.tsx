// The policy text, a plain labelled textarea (Monaco comes later).
import { useId } from 'react';

interface PolicyEditorProps {
  text: string;
  onChange: (text: string) => void;
}

export function PolicyEditor({ text, onChange }: PolicyEditorProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="editor">
      <label htmlFor={id} className="editor-label">
        Policy document
      </label>
      <p id={hintId} className="editor-hint">
        JSON in the <code>tollgate/policy@1</code> format.
      </p>
      <textarea
        id={id}
        className="editor-text"
        aria-describedby={hintId}
        value={text}
        onChange={(event) => onChange(event.target.value)}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        autoCorrect="off"
        rows={40}
      />
    </div>
  );
}
