// An editor's accessible name that outlives Monaco's own option updates.
import type { Monaco } from './load-monaco.ts';

type Editor = ReturnType<Monaco['editor']['create']>;

/**
 * Puts `label()` back as the editor's aria-label whenever Monaco replaces it. The diff editor writes its two sides'
 * options again each time it switches between side by side and inline (its width crosses
 * `renderSideBySideInlineBreakpoint`), from the options that changed only, and a label it was given before is not
 * among them: both sides would be left nameless.
 * Example: `const kept = keepAriaLabel(monaco, diff.getModifiedEditor(), () => 'Version 2'); ... kept.dispose()`.
 */
export function keepAriaLabel(monaco: Monaco, editor: Editor, label: () => string): { dispose(): void } {
  const option = monaco.editor.EditorOption.ariaLabel;
  return editor.onDidChangeConfiguration((event) => {
    if (!event.hasChanged(option)) return;
    const wanted = label();
    // Monaco may append its accessibility-help tip to a label; that still names the editor.
    if (!editor.getOption(option).startsWith(wanted)) editor.updateOptions({ ariaLabel: wanted });
  });
}
