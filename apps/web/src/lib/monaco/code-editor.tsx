// Monaco in a component: loads lazily, reports each change, shows diagnostics as markers, Ctrl/Cmd+S saves.
import type { Diagnostic } from '@tollgate/engine';
import { type Ref, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import { changedSpan } from './changed-span.ts';
import { EditorKeyHint } from './editor-key-hint.tsx';
import { allowKeyboardExit, type TabMode } from './keyboard-exit.ts';
import { loadMonaco, type Monaco } from './load-monaco.ts';
import { toMarkers } from './to-markers.ts';

type Editor = ReturnType<Monaco['editor']['create']>;

/** What a parent may ask of the editor: move the cursor, or replace the text (a reload). */
export interface CodeEditorHandle {
  goTo(line: number, column: number): void;
  setText(text: string): void;
}

interface CodeEditorProps {
  initialText: string;
  language: 'yaml' | 'json' | 'plaintext';
  diagnostics: readonly Diagnostic[];
  label: string;
  onChange: (text: string) => void;
  onSave?: () => void;
  readOnly?: boolean;
  /** Names the model (`policies/a.policy.json`), so language settings matched by file name, such as a JSON Schema, apply. */
  modelPath?: string;
  ref?: Ref<CodeEditorHandle>;
}

export function CodeEditor({
  initialText,
  language,
  diagnostics,
  label,
  onChange,
  onSave,
  readOnly = false,
  modelPath,
  ref,
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<{ monaco: Monaco; editor: Editor } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const hintId = useId();
  const [tabMode, setTabMode] = useState<TabMode>({ movesFocus: false, everywhere: false });
  const latest = useRef({ onChange, onSave, initialText });
  latest.current = { onChange, onSave, initialText };

  useEffect(() => {
    let disposed = false;
    let editor: Editor | undefined;
    let exit: { dispose(): void } | undefined;
    loadMonaco().then(
      (monaco) => {
        if (disposed || host.current === null) return;
        const uri =
          modelPath === undefined ? undefined : monaco.Uri.from({ scheme: 'inmemory', authority: 'tollgate', path: `/${modelPath}` });
        // A named model left by an earlier mount would make createModel throw.
        if (uri !== undefined) monaco.editor.getModel(uri)?.dispose();
        editor = monaco.editor.create(host.current, {
          model: monaco.editor.createModel(latest.current.initialText, language, uri),
          ariaLabel: label,
          readOnly,
          automaticLayout: true,
          minimap: { enabled: false },
          // Sticky scroll's lines are Tab stops of their own: Esc then Tab would land on them, not on the next control.
          stickyScroll: { enabled: false },
          scrollBeyondLastLine: false,
          fontSize: 13,
          tabSize: 2,
        });
        editor.onDidChangeModelContent(() => latest.current.onChange(editor?.getValue() ?? ''));
        editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onSave?.());
        exit = allowKeyboardExit(monaco, editor, hintId, setTabMode);
        setLoaded({ monaco, editor });
      },
      (error: unknown) => setFailure(error instanceof Error ? error.message : 'the editor did not load'),
    );
    return () => {
      disposed = true;
      exit?.dispose();
      editor?.getModel()?.dispose();
      editor?.dispose();
    };
  }, [language, label, readOnly, modelPath, hintId]);

  useEffect(() => {
    const model = loaded?.editor.getModel();
    if (!loaded || !model) return;
    loaded.monaco.editor.setModelMarkers(model, 'tollgate', toMarkers(diagnostics, model, { json: language === 'json' }));
  }, [loaded, diagnostics, language]);

  useImperativeHandle(
    ref,
    () => ({
      goTo(line, column) {
        if (!loaded) return;
        loaded.editor.setPosition({ lineNumber: line, column });
        loaded.editor.revealLineInCenter(line);
        loaded.editor.focus();
      },
      setText(text) {
        const model = loaded?.editor.getModel();
        if (!loaded || !model) return;
        const current = model.getValue();
        if (current === text) return;
        // Only the span that differs is replaced (a form field's edit is a few characters of a long sheet):
        // Monaco re-reads just those lines, and the undo stack, the scroll and the cursor elsewhere stay.
        const { start, end } = changedSpan(current, text);
        const from = model.getPositionAt(start);
        const to = model.getPositionAt(current.length - end);
        const range = new loaded.monaco.Range(from.lineNumber, from.column, to.lineNumber, to.column);
        model.pushEditOperations([], [{ range, text: text.slice(start, text.length - end) }], () => null);
      },
    }),
    [loaded],
  );

  return (
    <div className="code-editor">
      {loaded === null && failure === null && <p className="state state-loading">Loading the editor…</p>}
      {failure !== null && (
        <p className="state state-error" role="alert">
          {failure}
        </p>
      )}
      <EditorKeyHint id={hintId} mode={tabMode} />
      <div ref={host} className="code-editor-host" />
    </div>
  );
}
