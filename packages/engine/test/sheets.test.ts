/// <reference types="node" />
// The differential round trip (docs/rule-sheets.md; docs/colang.md, "The IR"): a sheet and the Colang it equals give
// identical rulebooks. Every sheet is data in test/sheets/, run by this one runner:
//
//   sheets/NAME.yaml                 a sheet that compiles. Its emitted Colang is parsed again with
//                                    parseColang and must give the sheet's rulebook, byte for byte.
//   sheets/NAME.co (optional)        the same rules written by hand (other context names, operand and
//                                    `and` order, parentheses, comments): formatRulebook bytes identical
//                                    to the sheet's, and compareRulebooks equal.
//   sheets/refused/NAME.yaml         a sheet that is refused; NAME.out holds every refusal line exactly as
//                                    formatRefusal('NAME.yaml', problem) prints it, in order.
//   sheets/not-equivalent/NAME.co    Colang that differs from a sheet; its header comments name the sheet
//                                    (`# against: FILE`), the first difference's `# path:` and its
//                                    `# difference:` text, which compareRulebooks must give exactly.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseColang } from '../src/colang/parse.ts';
import { canonicalJson, compareRulebooks, formatRulebook } from '../src/rulebook/canonical.ts';
import type { Rulebook } from '../src/rulebook/types.ts';
import { compileSheet, formatRefusal } from '../src/sheet/compile.ts';

const DIR = fileURLToPath(new URL('./sheets/', import.meta.url));
const REFUSED = `${DIR}refused/`;
const DIFFERENT = `${DIR}not-equivalent/`;

function filesIn(dir: string, ext: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .sort();
}

function read(path: string): string {
  return readFileSync(path, 'utf8');
}

function compileFile(file: string): { rulebook: Rulebook; colang: string } {
  const r = compileSheet(read(`${DIR}${file}`), undefined, file);
  if (!r.ok) throw new Error(`${file} was refused:\n${r.problems.map((p) => formatRefusal(file, p)).join('\n')}`);
  return r;
}

function parseFile(path: string): Rulebook {
  const r = parseColang(read(path), path);
  if (!r.ok) throw new Error(`${path} has problems: ${JSON.stringify(r.problems)}`);
  return r.rulebook;
}

const sheets = filesIn(DIR, '.yaml');
const handWritten = filesIn(DIR, '.co');

describe('the sheets of test/sheets', () => {
  it('are at least eight, most with a hand-written Colang beside them, and no Colang without its sheet', () => {
    expect(sheets.length).toBeGreaterThanOrEqual(8);
    expect(handWritten.length).toBeGreaterThanOrEqual(8);
    for (const co of handWritten) expect(sheets, `${co} has no sheet`).toContain(co.replace(/\.co$/, '.yaml'));
  });
});

describe.each(sheets)('%s', (file) => {
  const base = file.replace(/\.yaml$/, '');
  const co = `${DIR}${base}.co`;

  it('compiles, and its Colang parses again to the very same rulebook', () => {
    const { rulebook, colang } = compileFile(file);
    const again = parseColang(colang);
    expect(again.ok, JSON.stringify(again)).toBe(true);
    if (!again.ok) return;
    expect(canonicalJson(again.rulebook)).toBe(canonicalJson(rulebook));
    expect(formatRulebook(again.rulebook)).toBe(formatRulebook(rulebook));
  });

  if (existsSync(co)) {
    it(`equals ${base}.co, written by hand: identical rulebook.ir.json bytes`, () => {
      const { rulebook, colang } = compileFile(file);
      const text = read(co);
      // The hand-written file is its own text, not a copy of what the compiler emits.
      expect(text).not.toBe(colang);
      const byHand = parseFile(co);
      expect(formatRulebook(byHand)).toBe(formatRulebook(rulebook));
      expect(compareRulebooks(rulebook, byHand)).toEqual({ equal: true });
      expect(compareRulebooks(byHand, rulebook)).toEqual({ equal: true });
    });
  }
});

describe.each(filesIn(REFUSED, '.yaml'))('refused/%s', (file) => {
  it('is refused with exactly the lines of its .out file, and nothing compiled', () => {
    const r = compileSheet(read(`${REFUSED}${file}`), undefined, file);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r).sort()).toEqual(['ok', 'problems']);
    const want = read(`${REFUSED}${file.replace(/\.yaml$/, '.out')}`).trimEnd();
    expect(r.problems.map((p) => formatRefusal(file, p)).join('\n')).toBe(want);
    const lines = read(`${REFUSED}${file}`).split('\n').length;
    for (const p of r.problems) {
      // The .out file names each code; both are the sheet's (SHEET_CODES).
      expect(['rule_sheet_unsupported', 'rule_sheet_limit']).toContain(p.code);
      expect(p.line).toBeGreaterThanOrEqual(1);
      expect(p.line).toBeLessThanOrEqual(lines);
    }
  });
});

describe.each(filesIn(DIFFERENT, '.co'))('not-equivalent/%s', (file) => {
  const text = read(`${DIFFERENT}${file}`);
  const header = (key: string): string => {
    const m = new RegExp(`^# ${key}: (.*)$`, 'm').exec(text);
    if (!m?.[1]) throw new Error(`${file} has no "# ${key}:" line`);
    return m[1];
  };

  it('differs from its sheet, and compareRulebooks names the first difference', () => {
    const sheet = compileFile(header('against')).rulebook;
    const colang = parseFile(`${DIFFERENT}${file}`);
    expect(formatRulebook(colang)).not.toBe(formatRulebook(sheet));
    expect(compareRulebooks(sheet, colang)).toEqual({ equal: false, path: header('path'), difference: header('difference') });
  });
});
