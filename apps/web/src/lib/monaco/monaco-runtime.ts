// The lazily loaded Monaco: the editor API, YAML and JSON, and Vite-bundled workers (monaco's ESM guidance).
import * as monaco from 'monaco-editor/editor/editor.api.js';
import 'monaco-editor/languages/definitions/yaml/register.js';
import 'monaco-editor/languages/features/json/register.js';
// editor.api.js is the bare editor: hover and completion (the JSON Schema's help) are contributions of their own.
import 'monaco-editor/editor/contrib/hover/browser/hoverContribution.js';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';

import { CONSOLE_THEME, CONSOLE_THEME_DATA } from './console-theme.ts';

self.MonacoEnvironment = {
  getWorker(_workerId: string, label: string) {
    if (label === 'json') {
      return new Worker(new URL('monaco-editor/languages/features/json/json.worker.js', import.meta.url), { type: 'module' });
    }
    return new Worker(new URL('monaco-editor/editor/editor.worker.js', import.meta.url), { type: 'module' });
  },
};

// Every editor's theme: text at 4.5:1 or more, the diff's included.
monaco.editor.defineTheme(CONSOLE_THEME, CONSOLE_THEME_DATA);
monaco.editor.setTheme(CONSOLE_THEME);

export { monaco };
