// No hand-written source file is over 400 lines: a file that long holds more than one idea, and its
// parts get names of their own when it is split. Source is code (TypeScript, JavaScript) and the console's
// stylesheets; documentation and data are not. Tests, test helpers, fixtures and generated files are left
// out (a generated file says so in its first lines).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const MAX_LINES = 400;

/** The folders whose files are source. */
const SOURCE_DIRS = ['packages/engine/src', 'packages/store/src', 'apps/api/src', 'apps/api/bin', 'apps/web/src', 'bench/src', 'scripts'];
const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|css)$/;
const NOT_SOURCE = /\.test\.tsx?$|\.d\.ts$|(^|\/)(node_modules|test|fixtures|dist)\//;

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

it(`finds no hand-written source file over ${MAX_LINES} lines`, () => {
  const files = sourceFiles();
  expect(files.length, 'the sources were found').toBeGreaterThan(300);
  expect(files.filter((path) => path.endsWith('.css')).length, 'the stylesheets were found').toBeGreaterThan(10);
  const over: string[] = [];
  for (const path of files) {
    const text = readFileSync(join(root, path), 'utf8');
    if (/\bgenerated\b/i.test(text.split('\n', 3).join('\n'))) continue;
    const lines = linesOf(text);
    if (lines > MAX_LINES) over.push(`${path}: ${lines} lines`);
  }
  expect(over, `files over ${MAX_LINES} lines (split them into modules named for what each does)`).toEqual([]);
});
