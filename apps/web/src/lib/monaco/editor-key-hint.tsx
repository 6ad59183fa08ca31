// The visible line beside every Monaco editor that says how Tab behaves and how to leave the editor.
import type { TabMode } from './keyboard-exit.ts';

interface EditorKeyHintProps {
  id: string;
  mode: TabMode;
}

/** Example: `<EditorKeyHint id={hintId} mode={{ movesFocus: false, everywhere: false }} />`. */
export function EditorKeyHint({ id, mode }: EditorKeyHintProps) {
  return (
    // Polite: a change (Ctrl+M, Esc) is read out once the key has done its work.
    <p id={id} className="editor-key-hint" aria-live="polite">
      {mode.movesFocus ? 'Tab moves focus' : 'Tab indents'}
      {' · '}
      <kbd>Ctrl</kbd>+<kbd>M</kbd>: {mode.everywhere ? 'Tab indents again' : 'Tab moves focus'}
      {' · '}
      <kbd>Esc</kbd> then <kbd>Tab</kbd>: leave the editor
    </p>
  );
}
