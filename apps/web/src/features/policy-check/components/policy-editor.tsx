// The playground's policy text in Monaco, as every other editor: the engine's problems as markers (placed by line or
// by JSON Pointer), the policy@1 schema's completion and hover, and the keyboard way out (lib/monaco/keyboard-exit.ts).
import type { Diagnostic } from '@tollgate/engine';
import { type Ref, useEffect } from 'react';
import { CodeEditor, type CodeEditorHandle } from '../../../lib/monaco/code-editor.tsx';
import { registerPolicySchema } from '../register-policy-schema.ts';

/** The playground's model name: a `*.policy.json` name, so the schema's completion applies; it names no stored document. */
export const PLAYGROUND_MODEL = 'playground/playground.policy.json';

interface PolicyEditorProps {
  initialText: string;
  diagnostics: readonly Diagnostic[];
  onChange: (text: string) => void;
  ref?: Ref<CodeEditorHandle>;
}

export function PolicyEditor({ initialText, diagnostics, onChange, ref }: PolicyEditorProps) {
  // Also switches Monaco's own JSON validation off, so the engine's markers are the only ones.
  useEffect(() => {
    registerPolicySchema().catch(() => undefined);
  }, []);
  return (
    <div className="editor playground-editor">
      <p className="editor-hint">
        JSON in the <code>tollgate/policy@1</code> format, checked by the engine as you type. Nothing here is stored.
      </p>
      <CodeEditor
        ref={ref}
        initialText={initialText}
        language="json"
        diagnostics={diagnostics}
        label="Policy document"
        modelPath={PLAYGROUND_MODEL}
        onChange={onChange}
      />
    </div>
  );
}
