// Monaco's diff editor in a component: loads lazily, read-only, two texts side by side (inline on narrow windows).
import { useEffect, useId, useRef, useState } from 'react';
import { EditorKeyHint } from './editor-key-hint.tsx';
import { allowKeyboardExit, type TabMode } from './keyboard-exit.ts';
import { loadMonaco, type Monaco } from './load-monaco.ts';

type DiffEditorInstance = ReturnType<Monaco['editor']['createDiffEditor']>;

interface DiffEditorProps {
  original: string;
  modified: string;
  language: 'yaml' | 'json' | 'plaintext';
  originalLabel: string;
  modifiedLabel: string;
  /** Wrap long lines rather than scroll them sideways: a definition's description is one long JSON string. */
  wrap?: boolean;
}

export function DiffEditor({ original, modified, language, originalLabel, modifiedLabel, wrap = false }: DiffEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<{ monaco: Monaco; editor: DiffEditorInstance } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const hintId = useId();
  const [tabMode, setTabMode] = useState<TabMode>({ movesFocus: false, everywhere: false });

  useEffect(() => {
    let disposed = false;
    let editor: DiffEditorInstance | undefined;
    let exits: { dispose(): void }[] = [];
    loadMonaco().then(
      (monaco) => {
        if (disposed || host.current === null) return;
        editor = monaco.editor.createDiffEditor(host.current, {
          readOnly: true,
          originalEditable: false,
          automaticLayout: true,
          minimap: { enabled: false },
          // Sticky scroll's lines are Tab stops of their own: Esc then Tab would land on them, not on the next control.
          stickyScroll: { enabled: false },
          scrollBeyondLastLine: false,
          renderSideBySideInlineBreakpoint: 520,
          // Long documents fold their unchanged lines, so the change is in view.
          hideUnchangedRegions: { enabled: true, contextLineCount: 3 },
          fontSize: 13,
          ...(wrap ? { wordWrap: 'on', diffWordWrap: 'on' } : {}),
        });
        exits = [editor.getOriginalEditor(), editor.getModifiedEditor()].map((side) => allowKeyboardExit(monaco, side, hintId, setTabMode));
        setLoaded({ monaco, editor });
      },
      (error: unknown) => setFailure(error instanceof Error ? error.message : 'the diff editor did not load'),
    );
    return () => {
      disposed = true;
      for (const exit of exits) exit.dispose();
      const model = editor?.getModel();
      editor?.dispose();
      model?.original.dispose();
      model?.modified.dispose();
    };
  }, [hintId, wrap]);

  useEffect(() => {
    if (!loaded) return;
    const { monaco, editor } = loaded;
    const previous = editor.getModel();
    editor.setModel({ original: monaco.editor.createModel(original, language), modified: monaco.editor.createModel(modified, language) });
    editor.getOriginalEditor().updateOptions({ ariaLabel: originalLabel });
    editor.getModifiedEditor().updateOptions({ ariaLabel: modifiedLabel });
    previous?.original.dispose();
    previous?.modified.dispose();
  }, [loaded, original, modified, language, originalLabel, modifiedLabel]);

  return (
    <div className="code-editor">
      {loaded === null && failure === null && <p className="state state-loading">Loading the diff…</p>}
      {failure !== null && (
        <p className="state state-error" role="alert">
          {failure}
        </p>
      )}
      <EditorKeyHint id={hintId} mode={tabMode} />
      <div ref={host} className="code-editor-host diff-editor-host" />
    </div>
  );
}
