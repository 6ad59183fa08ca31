// The visible line beside every Monaco editor that says how Tab behaves and how to leave the editor.

interface EditorKeyHintProps {
  id: string;
  /** Whether Tab moves focus now (Ctrl+M, or a pending Esc). */
  movesFocus: boolean;
}

/** Example: `<EditorKeyHint id={hintId} movesFocus={false} />`. */
export function EditorKeyHint({ id, movesFocus }: EditorKeyHintProps) {
  return (
    <p id={id} className="editor-key-hint">
      {movesFocus ? 'Tab moves focus' : 'Tab indents'}
      {' · '}
      <kbd>Ctrl</kbd>+<kbd>M</kbd>: {movesFocus ? 'Tab indents again' : 'Tab moves focus'}
      {' · '}
      <kbd>Esc</kbd> then <kbd>Tab</kbd>: leave the editor
    </p>
  );
}
