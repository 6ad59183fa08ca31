// The way out of every Monaco editor by keyboard (docs/console.md, "Keyboard"): Ctrl+M turns Tab into focus
// movement in every editor until pressed again, and Esc then Tab leaves this editor once.
import type { Monaco } from './load-monaco.ts';

type Editor = ReturnType<Monaco['editor']['create']>;

// Ctrl+M holds for every editor on the page, as Monaco's own tab-focus mode does; the console owns the state so
// each editor's hint can say what Tab does now.
let everywhere = false;
const followers = new Set<() => void>();

function toggleEverywhere(): void {
  everywhere = !everywhere;
  for (const follow of followers) follow();
}

/** What Tab does in an editor now: moves focus (by Ctrl+M, or once after Esc), and whether Ctrl+M is on. */
export interface TabMode {
  movesFocus: boolean;
  everywhere: boolean;
}

/**
 * Lets a keyboard leave `editor`: Ctrl+M (Ctrl+Shift+M on a Mac) makes Tab and Shift+Tab move focus in every
 * editor until pressed again; after Esc, the next Tab moves focus once (any other key, or leaving, ends that). The
 * editor's input is described by the element `describedBy` (the visible hint); `onMode` hears whether Tab moves
 * focus, and why, whenever that changes.
 * Example: `const exit = allowKeyboardExit(monaco, editor, hintId, setMovesFocus); ... exit.dispose()`.
 */
export function allowKeyboardExit(monaco: Monaco, editor: Editor, describedBy: string, onMode: (mode: TabMode) => void) {
  const { KeyCode, KeyMod } = monaco;
  let armed = false;
  const apply = () => {
    editor.updateOptions({ tabFocusMode: everywhere || armed });
    onMode({ movesFocus: everywhere || armed, everywhere });
  };
  const arm = (on: boolean) => {
    if (armed === on) return;
    armed = on;
    apply();
  };
  followers.add(apply);
  const subscriptions = [
    editor.addAction({
      id: 'tollgate.toggleTabMovesFocus',
      label: 'Toggle Tab moves focus',
      keybindings: [KeyMod.CtrlCmd | KeyCode.KeyM, KeyMod.WinCtrl | KeyMod.Shift | KeyCode.KeyM],
      run: toggleEverywhere,
    }),
    editor.onKeyDown((event) => {
      if (event.keyCode === KeyCode.Escape) arm(true);
      else if (event.keyCode !== KeyCode.Tab && event.keyCode !== KeyCode.Shift) arm(false);
    }),
    editor.onDidBlurEditorText(() => arm(false)),
    editor.onDidFocusEditorText(() => describe(editor, describedBy)),
  ];
  describe(editor, describedBy);
  apply();
  return {
    dispose() {
      followers.delete(apply);
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
