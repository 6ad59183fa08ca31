// The lazily loaded Monaco: the editor API, YAML and JSON, and Vite-bundled workers (monaco's ESM guidance).
import * as monaco from 'monaco-editor/editor/editor.api.js';
import 'monaco-editor/languages/definitions/yaml/register.js';
import 'monaco-editor/languages/features/json/register.js';
// editor.api.js is the bare editor: hover and completion (the JSON Schema's help) are contributions of their own.
import 'monaco-editor/editor/contrib/hover/browser/hoverContribution.js';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController.js';
// The JSON language's mode loads this module (every editor contribution and the services they need) when
// the first JSON model is made. Monaco reads its services once, when the first editor is created, so a
// contribution that arrives later finds its service unknown ("[createInstance] ... depends on UNKNOWN
// service IOutlineModelService", ICodeLensCache, treeViewsDndService). Loaded here, everything registers
// before any editor exists, and every editor, diff or plain, has the same contributions.
import 'monaco-editor/internal/common/workers.js';

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
