// The Monaco language for a document id, apart from the checks so the editor can name it without the engine.

export type EditorLanguage = 'yaml' | 'json' | 'plaintext';

/** The Monaco language for a document id. Example: `languageOf('policies/a.policy.json') // 'json'`. */
export function languageOf(id: string): EditorLanguage {
  if (/\.ya?ml$/i.test(id)) return 'yaml';
  if (/\.json$/i.test(id)) return 'json';
  return 'plaintext';
}
