// Every code the CLI answers of its own is in the one registry with the `cli` domain (docs/cli.md, "The CLI's
// codes"). CliError's type holds that for literals; this scan holds it for a code chosen by an expression too.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CODES } from '@tollgate/engine';
import { describe, expect, it } from 'vitest';

const cliDir = fileURLToPath(new URL('../src/cli/', import.meta.url));
const UPPER = /'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)'/g;

/** The codes written in the CLI's source where a CliError's code is chosen: its first argument, a `code` it is given. */
function codesInSource(): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(cliDir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue;
    const text = readFileSync(join(cliDir, entry), 'utf8');
    if (!text.includes('CliError')) continue;
    const places = [
      ...[...text.matchAll(/new CliError\(\s*([^,]+),/g)].map((m) => m[1] as string),
      // A code chosen beforehand (`const code = ... ? 'LOCKED' : 'STORE_DAMAGED'`), where a CliError takes it.
      ...(/new CliError\(code\b/.test(text) ? [...text.matchAll(/const code = ([^;\n]+)/g)].map((m) => m[1] as string) : []),
    ];
    for (const place of places) for (const [, code] of place.matchAll(UPPER)) found.set(code as string, entry);
  }
  return found;
}

describe('the CLI’s codes', () => {
  it('registers every code the CLI answers with the cli domain', () => {
    const found = codesInSource();
    // The scan sees the codes written in every way the CLI writes them.
    expect([...found.keys()]).toEqual(expect.arrayContaining(['USAGE', 'UNREADABLE', 'LOCKED', 'STORE_DAMAGED', 'IMPORT_FAILED']));
    for (const [code, file] of found) {
      expect(CODES.get(code)?.domains, `${code} (src/cli/${file}) is not registered with the cli domain`).toContain('cli');
    }
  });
});
