// The console's Monaco theme: Monaco's light theme with every text colour at 4.5:1 or more on the backgrounds it is
// drawn on, the diff's removed and inserted text included (WCAG 1.4.3; docs/console.md, "Accessibility").
import type { editor } from 'monaco-editor/editor/editor.api.js';

export const CONSOLE_THEME = 'tollgate-light';

/** The theme's data. Example: `monaco.editor.defineTheme(CONSOLE_THEME, CONSOLE_THEME_DATA)`. */
export const CONSOLE_THEME_DATA: editor.IStandaloneThemeData = {
  base: 'vs',
  inherit: true,
  // Darker than Monaco's own token colours, so each passes on the diff's tints below.
  rules: [
    { token: 'number', foreground: '07653f' },
    { token: 'comment', foreground: '006400' },
    { token: 'type', foreground: '006363' },
  ],
  colors: {
    'editorLineNumber.foreground': '#1d6478',
    'editorLineNumber.dimmedForeground': '#5d6b7c',
    // Opaque tints: a translucent one lays over the line's and darkens the text's background (blue keys at 4.04:1).
    'diffEditor.removedTextBackground': '#ffcfcf',
    'diffEditor.removedLineBackground': '#fff0f0',
    'diffEditor.insertedTextBackground': '#c9efd2',
    'diffEditor.insertedLineBackground': '#ebfaee',
  },
};
