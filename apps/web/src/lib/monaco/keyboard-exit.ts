// The way out of every Monaco editor by keyboard (docs/console.md, "Keyboard"): Ctrl+M turns Tab into focus
// movement for every editor (Monaco's tab-focus mode), and Esc then Tab leaves this editor once.
import type { Monaco } from './load-monaco.ts';

type Editor = ReturnType<Monaco['editor']['create']>;

/** Whether Tab moves focus out of `editor` now, by Ctrl+M or by a pending Esc. */
export function tabMovesFocus(monaco: Monaco, editor: Editor): boolean {
  return editor.getOption(monaco.editor.EditorOption.tabFocusMode);
}

/**
 * Lets a keyboard leave `editor`: after Esc, the next Tab (or Shift+Tab) moves focus instead of indenting; any
 * other key, or leaving the editor, ends that. The editor's input is described by the element `describedBy`
 * (the visible hint). `onMode` hears whether Tab moves focus whenever that changes.
 * Example: `const exit = allowKeyboardExit(monaco, editor, hintId, setMovesFocus); ... exit.dispose()`.
 */
export function allowKeyboardExit(monaco: Monaco, editor: Editor, describedBy: string, onMode: (movesFocus: boolean) => void) {
  const { KeyCode } = monaco;
  let armed = false;
  const disarm = () => {
    if (!armed) return;
    armed = false;
    // false leaves the shared Ctrl+M mode as it is: Monaco ORs this option with it.
    editor.updateOptions({ tabFocusMode: false });
  };
  const subscriptions = [
    editor.onKeyDown((event) => {
      if (event.keyCode === KeyCode.Escape) {
        armed = true;
        editor.updateOptions({ tabFocusMode: true });
      } else if (event.keyCode !== KeyCode.Tab && event.keyCode !== KeyCode.Shift) {
        disarm();
      }
    }),
    editor.onDidBlurEditorText(disarm),
    editor.onDidChangeConfiguration((change) => {
      if (change.hasChanged(monaco.editor.EditorOption.tabFocusMode)) onMode(tabMovesFocus(monaco, editor));
    }),
    editor.onDidFocusEditorText(() => describe(editor, describedBy)),
  ];
  describe(editor, describedBy);
  onMode(tabMovesFocus(monaco, editor));
  return {
    dispose() {
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}

/** Points the editor's input (a textarea, or the EditContext element in Chromium) at the hint. */
function describe(editor: Editor, describedBy: string): void {
  for (const input of editor.getDomNode()?.querySelectorAll('textarea, .native-edit-context') ?? []) {
    input.setAttribute('aria-describedby', describedBy);
  }
}
