// placeProblems: each problem gets the range of its path or of the nearest enclosing value, in line order.
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from './diagnostic.ts';
import { placeProblems } from './place-problems.ts';
import { readYamlText } from './yaml-text.ts';

const problem = (path: string): Diagnostic => ({ code: 'UNKNOWN_MEMBER', severity: 'error', path, message: path });

describe('placeProblems', () => {
  it('places a problem at its path, or the nearest enclosing value, and sorts by line and column', () => {
    const read = readYamlText('a: 1\nb:\n  c: [x, y]\n');
    if (!read.ok) throw new Error('YAML');
    const placed = placeProblems([problem('/b/c/1'), problem('/b/missing'), problem('/a'), problem('/nowhere/deep')], read.rangeOf);
    expect(placed.map((p) => [p.path, p.line, p.column])).toEqual([
      ['/nowhere/deep', 1, 1],
      ['/a', 1, 4],
      ['/b/missing', 3, 3],
      ['/b/c/1', 3, 10],
    ]);
  });

  it('keeps a range a problem already has, and places everything on line 1 of an empty text', () => {
    const read = readYamlText('');
    if (!read.ok) throw new Error('YAML');
    const ranged = { ...problem('/x'), line: 7, column: 1, endLine: 7, endColumn: 2 };
    expect(placeProblems([ranged, problem('/y')], read.rangeOf).map((p) => p.line)).toEqual([1, 7]);
  });
});
