// The repository explains itself from inside: no comment and no page cites an issue number, a design note or
// reference text kept elsewhere (a shared folder beside the checkout, a .txt or .md file the repository
// does not track), or "the seed" meaning such a text; they cite docs/ or code instead. Read are the comments
// of scripts, stylesheets and YAML files (examples, fixtures, configuration) and the whole of Markdown pages
// (own-words.ts); strings and data may name such files (a file name in quotes is data, not a citation).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commentLines, cssCommentLines, scannerOf, yamlCommentLines } from './own-words.ts';
import { REPO_ROOT } from './server-harness.ts';

/** Why a line of a comment or a page cites something outside the repository, or undefined when it does not. */
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

describe('comments and pages cite only what the repository holds', () => {
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

  it('the scanners read the comments of stylesheets and YAML files, not their strings, values or block text', () => {
    const css = [`.a::before { content: "/* ${ISSUE} 8 */"; } /* cites ${ISSUE} 8`, `   on two lines (${DESIGN}) */`].join('\n');
    expect(cssCommentLines(css).map((c) => [c.line, c.text.trim()])).toEqual([
      [1, `cites ${ISSUE} 8`],
      [2, `on two lines (${DESIGN})`],
    ]);
    const yaml = [
      `# cites ${ISSUE} 8`,
      `name: "a # that is data" # and a tail (${DESIGN})`,
      'url: http://x/#anchor',
      'flow: |',
      `  # a Colang comment, the value's text (${ISSUE} 9)`,
      '',
      '  more text',
      `after: 1 # ${SEED}: "x"`,
    ].join('\n');
    expect(yamlCommentLines(yaml).map((c) => [c.line, c.text.trim()])).toEqual([
      [1, `cites ${ISSUE} 8`],
      [2, `and a tail (${DESIGN})`],
      [8, `${SEED}: "x"`],
    ]);
    expect(scannerOf('docs/policy.md')?.('a\nb')).toEqual([
      { line: 1, text: 'a' },
      { line: 2, text: 'b' },
    ]);
    expect(scannerOf('examples/refunds.policy.json')).toBeUndefined();
  });

  it('finds no comment of a script, stylesheet or YAML file, and no Markdown page, that cites something outside the repository', () => {
    const files = trackedFiles();
    const tracked = new Set([...files, ...files.map((path) => basename(path))]);
    // A file moved in the working tree but not yet in the index is read at its new place once added.
    const read = files.filter((path) => scannerOf(path) !== undefined && existsSync(join(REPO_ROOT, path)));
    const count = (kind: RegExp) => read.filter((path) => kind.test(path)).length;
    expect(count(/\.tsx?$/), 'the scripts were found').toBeGreaterThan(300);
    expect(count(/\.css$/), 'the stylesheets were found').toBeGreaterThan(10);
    expect(count(/\.ya?ml$/), 'the YAML files were found').toBeGreaterThan(10);
    expect(count(/\.md$/), 'the Markdown pages were found').toBeGreaterThan(10);
    const found: string[] = [];
    for (const path of read) {
      for (const { line, text } of scannerOf(path)?.(readFileSync(join(REPO_ROOT, path), 'utf8')) ?? []) {
        const why = outsideCitation(text, tracked);
        if (why) found.push(`${path}:${line}: ${why}: ${text.trim()}`);
      }
    }
    expect(found).toEqual([]);
  });
});
