// No hand-written source file is over 400 lines: a file that long holds more than one idea, and its
// parts get names of their own when it is split. Tests, test helpers, fixtures and generated files are
// left out (a generated file says so in its first lines).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const MAX_LINES = 400;

/** The folders whose files are source. */
const SOURCE_DIRS = ['packages/engine/src', 'packages/store/src', 'apps/api/src', 'apps/api/bin', 'apps/web/src', 'bench/src', 'scripts'];
const SOURCE = /\.(ts|tsx|mjs|js)$/;
const NOT_SOURCE = /\.test\.tsx?$|\.d\.ts$|(^|\/)(node_modules|test|fixtures|dist)\//;

/**
 * Files over the limit that other branches split, with the lines they had: the test fails when one grows,
 * and when one is back under the limit (remove it here then). Emptied when those branches are merged.
 */
const KNOWN_OVER: Readonly<Record<string, number>> = {};

function sourceFiles(): string[] {
  return SOURCE_DIRS.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .map((entry) => `${dir}/${entry.split('\\').join('/')}`)
      .filter((path) => SOURCE.test(path) && !NOT_SOURCE.test(path)),
  );
}

function linesOf(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

it(`finds no hand-written source file over ${MAX_LINES} lines beyond the known ones`, () => {
  const files = sourceFiles();
  expect(files.length, 'the sources were found').toBeGreaterThan(300);
  const over: string[] = [];
  const shrunk: string[] = [];
  for (const path of files) {
    const text = readFileSync(join(root, path), 'utf8');
    if (/\bgenerated\b/i.test(text.split('\n', 3).join('\n'))) continue;
    const lines = linesOf(text);
    const known = KNOWN_OVER[path];
    if (lines > (known ?? MAX_LINES)) over.push(`${path}: ${lines} lines`);
    else if (known !== undefined && lines <= MAX_LINES) shrunk.push(path);
  }
  expect(over, `files over ${MAX_LINES} lines (split them into modules named for what each does)`).toEqual([]);
  expect(shrunk, `files back under ${MAX_LINES} lines: remove them from KNOWN_OVER`).toEqual([]);
  for (const path of Object.keys(KNOWN_OVER)) expect(files, `${path} in KNOWN_OVER still exists`).toContain(path);
});
