// Monaco's diff editor in a component: loads lazily, read-only, two texts side by side (inline on narrow windows).
import { useEffect, useId, useRef, useState } from 'react';
import { EditorKeyHint } from './editor-key-hint.tsx';
import { keepAriaLabel } from './keep-aria-label.ts';
import { allowKeyboardExit, type TabMode } from './keyboard-exit.ts';
import { loadMonaco, type Monaco } from './load-monaco.ts';

type DiffEditorInstance = ReturnType<Monaco['editor']['createDiffEditor']>;
type TextModel = ReturnType<Monaco['editor']['createModel']>;

interface DiffEditorProps {
  original: string;
  modified: string;
  language: 'yaml' | 'json' | 'plaintext';
  originalLabel: string;
  modifiedLabel: string;
  /** Wrap long lines rather than scroll them sideways: a definition's description is one long JSON string. */
  wrap?: boolean;
}

/** The editor and the two models it shows, which live exactly as long as it does. */
interface Loaded {
  monaco: Monaco;
  editor: DiffEditorInstance;
  models: { original: TextModel; modified: TextModel };
}

export function DiffEditor({ original, modified, language, originalLabel, modifiedLabel, wrap = false }: DiffEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const hintId = useId();
  const [tabMode, setTabMode] = useState<TabMode>({ movesFocus: false, everywhere: false });
  // How many lines the diff marks, both sides together: on the element, so a test can tell a diff buried in
  // reformatting from the real change.
  const [changedLines, setChangedLines] = useState<number | null>(null);
  // Read by the label keepers whenever Monaco resets a side's options, so they always restore the current names.
  const labels = useRef({ original: originalLabel, modified: modifiedLabel });
  labels.current = { original: originalLabel, modified: modifiedLabel };

  useEffect(() => {
    let disposed = false;
    let made: Loaded | undefined;
    let helpers: { dispose(): void }[] = [];
    loadMonaco().then(
      (monaco) => {
        if (disposed || host.current === null) return;
        const editor = monaco.editor.createDiffEditor(host.current, {
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
          originalAriaLabel: labels.current.original,
          modifiedAriaLabel: labels.current.modified,
          ...(wrap ? { wordWrap: 'on', diffWordWrap: 'on' } : {}),
        });
        // The models are made once, with the editor, and given new texts in place: swapping models under the
        // widget would leave its previous view model (released a tick later) holding models already disposed.
        const models = { original: monaco.editor.createModel('', 'plaintext'), modified: monaco.editor.createModel('', 'plaintext') };
        editor.setModel(models);
        const sides = [editor.getOriginalEditor(), editor.getModifiedEditor()];
        helpers = [
          ...sides.map((side) => allowKeyboardExit(monaco, side, hintId, setTabMode)),
          keepAriaLabel(monaco, editor.getOriginalEditor(), () => labels.current.original),
          keepAriaLabel(monaco, editor.getModifiedEditor(), () => labels.current.modified),
          editor.onDidUpdateDiff(() => setChangedLines(countChangedLines(editor.getLineChanges()))),
        ];
        made = { monaco, editor, models };
        setLoaded(made);
      },
      (error: unknown) => setFailure(error instanceof Error ? error.message : 'the diff editor did not load'),
    );
    return () => {
      disposed = true;
      for (const helper of helpers) helper.dispose();
      // The editor lets go of its models first; a model disposed while the editor still shows it is Monaco's
      // "TextModel got disposed before DiffEditorWidget model got reset".
      made?.editor.dispose();
      made?.models.original.dispose();
      made?.models.modified.dispose();
    };
  }, [hintId, wrap]);

  useEffect(() => {
    if (!loaded) return;
    const { monaco, editor, models } = loaded;
    for (const [model, text] of [
      [models.original, original],
      [models.modified, modified],
    ] as const) {
      if (model.getLanguageId() !== language) monaco.editor.setModelLanguage(model, language);
      if (model.getValue() !== text) model.setValue(text);
    }
    editor.getOriginalEditor().updateOptions({ ariaLabel: originalLabel });
    editor.getModifiedEditor().updateOptions({ ariaLabel: modifiedLabel });
  }, [loaded, original, modified, language, originalLabel, modifiedLabel]);

  return (
    <div className="code-editor" data-changed-lines={changedLines ?? undefined}>
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

type LineChange = {
  originalStartLineNumber: number;
  originalEndLineNumber: number;
  modifiedStartLineNumber: number;
  modifiedEndLineNumber: number;
};

/** Lines inside the changes on both sides (an end of 0 is Monaco's "no line on this side"). */
function countChangedLines(changes: readonly LineChange[] | null): number | null {
  if (changes === null) return null;
  const span = (start: number, end: number) => (end === 0 ? 0 : end - start + 1);
  return changes.reduce(
    (n, c) => n + span(c.originalStartLineNumber, c.originalEndLineNumber) + span(c.modifiedStartLineNumber, c.modifiedEndLineNumber),
    0,
  );
}
