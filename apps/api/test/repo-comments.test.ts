// Comments explain the code from inside the repository: none cites an issue number, a design note or
// reference text kept elsewhere (a shared folder beside the checkout, a .txt or .md file the repository
// does not track), or "the seed" meaning such a text. A comment cites docs/ or code instead. Only comment text is
// read: strings and test data may name such files (a file name in quotes is data, not a citation).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './server-harness.ts';

const SCANNED = ['apps/', 'packages/', 'scripts/', 'e2e/', 'bench/'];
const SOURCE = /\.(ts|tsx|mjs)$/;

/** One comment line: its 1-based line number in the file and its text. */
interface CommentLine {
  line: number;
  text: string;
}

/** The character before a `/` after which a `/` opens a regular expression rather than a division. */
const BEFORE_REGEX = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);

/**
 * The comment text of a TypeScript or JavaScript file, line by line: `//` tails and the lines of `/* *\/`
 * blocks. Strings, template literals and regular expressions are skipped, so a `//` inside one is not a
 * comment. A small scanner, not a parser: a template's `${}` holding a backtick is not followed.
 */
export function commentLines(source: string): CommentLine[] {
  const out: CommentLine[] = [];
  let line = 1;
  let i = 0;
  let lastSignificant = '';
  const n = source.length;
  const push = (start: number, end: number, startLine: number) => {
    source
      .slice(start, end)
      .split('\n')
      .forEach((text, k) => {
        out.push({ line: startLine + k, text });
      });
  };
  while (i < n) {
    const c = source[i] ?? '';
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? n : end;
      push(i + 2, stop, line);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end;
      push(i + 2, stop, line);
      line += source.slice(i, stop).split('\n').length - 1;
      i = stop + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      i++;
      while (i < n && source[i] !== c) {
        if (source[i] === '\\') i++;
        else if (source[i] === '\n') {
          line++;
          if (c !== '`') break;
        }
        i++;
      }
      i++;
      lastSignificant = c;
    } else if (c === '/' && BEFORE_REGEX.has(lastSignificant)) {
      i++;
      let inClass = false;
      while (i < n && source[i] !== '\n' && (inClass || source[i] !== '/')) {
        if (source[i] === '\\') i++;
        else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
        i++;
      }
      i++;
      lastSignificant = 'x';
    } else {
      if (!/\s/.test(c)) lastSignificant = /[\w$)\]]/.test(c) ? 'x' : c;
      i++;
    }
  }
  return out;
}

/** Why a comment line cites something outside the repository, or undefined when it does not. */
export function outsideCitation(text: string, tracked: ReadonlySet<string>): string | undefined {
  const issue = /\bissues? ?#?\d+/i.exec(text);
  if (issue) return `an issue number ("${issue[0]}")`;
  if (/\.\.\/shared\b/.test(text)) return 'a file in ../shared';
  const seed = /\bseed:|\bthe seed['’]s\b/i.exec(text);
  if (seed) return `a reference text outside the repository ("${seed[0]}")`;
  // A bare file name is a citation; one in quotes is an example's data (as in documentKindOf's examples).
  for (const m of text.matchAll(/(?<![\w'"`/.-])((?:\.\.?\/)?[\w./-]*\b[\w-]+\.(?:txt|md))\b/g)) {
    const cited = m[1] ?? '';
    const name = cited.replace(/^\.\.?\//, '');
    if (!tracked.has(name) && !tracked.has(basename(name))) return `a file the repository does not have (${cited})`;
  }
  return undefined;
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((path) => path.length > 0);
}

// The citations this test refuses, assembled from parts, so its own source cites nothing.
const ISSUE = ['iss', 'ue'].join('');
const DESIGN = ['DESI', 'GN.md'].join('');
const SEED = ['se', 'ed'].join('');
const NOTES = ['notes', 'txt'].join('.');
const RULE_SETS = ['rule-sets', 'txt'].join('.');

describe('comments cite only what the repository holds', () => {
  it('the scanner reads comments, not strings or regular expressions', () => {
    const source = [
      `const a = 'see ${ISSUE} 8'; // tail cites ${ISSUE} 8`,
      `const url = \`http://x/${DESIGN}\`; const r = /\\/\\/ ${ISSUE} 9/;`,
      '/** Block on',
      ` * two lines (${DESIGN}). */`,
    ].join('\n');
    expect(commentLines(source).map((c) => [c.line, c.text.trim()])).toEqual([
      [1, `tail cites ${ISSUE} 8`],
      [3, '* Block on'],
      [4, `* two lines (${DESIGN}).`],
    ]);
  });

  it('flags issue numbers, ../shared, untracked .txt and .md names and "the seed" citations', () => {
    const tracked = new Set(['docs/policy.md', 'policy.md', 'README.md']);
    const flagged = (text: string) => outsideCitation(text, tracked) !== undefined;
    for (const text of [
      `the hot path (${ISSUE} 8)`,
      `see ${DESIGN}, "Documents"`,
      `as ${['..', 'shared'].join('/')} describes`,
      `(${RULE_SETS}, "Run one")`,
      `(${SEED}: "Approvers in rules")`,
      `the ${SEED}'s example sheet`,
      `the ${SEED}’s example sheet`,
    ]) {
      expect(flagged(text), text).toBe(true);
    }
    for (const text of [
      '(docs/policy.md, "Amounts")',
      'README.md says so',
      `documentKindOf('${NOTES}') // undefined`,
      'the demo seed data',
      'a fast-check run',
    ]) {
      expect(flagged(text), text).toBe(false);
    }
  });

  it('finds no comment in apps/, packages/, scripts/, e2e/ or bench/ that cites something outside it', () => {
    const files = trackedFiles();
    const tracked = new Set([...files, ...files.map((path) => basename(path))]);
    const sources = files.filter((path) => SCANNED.some((dir) => path.startsWith(dir)) && SOURCE.test(path));
    expect(sources.length, 'the sources were found').toBeGreaterThan(300);
    const found: string[] = [];
    for (const path of sources) {
      for (const { line, text } of commentLines(readFileSync(join(REPO_ROOT, path), 'utf8'))) {
        const why = outsideCitation(text, tracked);
        if (why) found.push(`${path}:${line}: ${why}: ${text.trim()}`);
      }
    }
    expect(found).toEqual([]);
  });
});
