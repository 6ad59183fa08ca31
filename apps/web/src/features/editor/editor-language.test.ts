// languageOf: the editor language follows the document id's extension.
import { describe, expect, it } from 'vitest';
import { languageOf } from './editor-language.ts';

describe('languageOf', () => {
  it('picks the editor language from the id', () => {
    expect(languageOf('sheets/a.rules.yaml')).toBe('yaml');
    expect(languageOf('settings.YML')).toBe('yaml');
    expect(languageOf('policies/a.policy.json')).toBe('json');
    expect(languageOf('colang/a.co')).toBe('plaintext');
  });
});
