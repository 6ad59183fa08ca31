// docs/concepts.md keeps its promise: each of the nine concepts has its row (one sentence, when you need it) and its
// node in the Mermaid diagram, and every page it links to is there.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './server-harness.ts';

const PAGE = readFileSync(join(REPO_ROOT, 'docs/concepts.md'), 'utf8');
const CONCEPTS = ['policy', 'rule sheet', 'Colang', 'rule set', 'catalogue', 'agent', 'settings', 'tool authorization', 'definition pins'];

/** The body of the page's one ```mermaid block. */
function diagram(): string {
  const blocks = [...PAGE.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
  expect(blocks).toHaveLength(1);
  return blocks[0] as string;
}

describe('docs/concepts.md', () => {
  it('gives each concept one row: its sentence and when it is needed', () => {
    const rows = PAGE.split('\n').filter((line) => /^\| \*\*/.test(line));
    expect(rows.map((row) => /^\| \*\*(.+?)\*\* \|/.exec(row)?.[1]).sort()).toEqual([...CONCEPTS].sort());
    for (const row of rows) {
      const cells = row.split(' | ').map((cell) => cell.trim());
      expect(cells, row).toHaveLength(3);
      expect(cells[1]?.split(/\. (?=[A-Z])/), `${cells[0]}: one sentence`).toHaveLength(1);
      expect(cells[2], `${cells[0]}: when`).toMatch(/\w/);
    }
  });

  it('draws every concept in the diagram, and the diagram is a flowchart whose edges name declared nodes', () => {
    const body = diagram();
    expect(body.split('\n')[0]).toBe('flowchart LR');
    const nodes = new Map([...body.matchAll(/^\s*(\w+)[[(]+"(.*?)"[\])]+$/gm)].map((m) => [m[1] as string, m[2] as string]));
    for (const concept of CONCEPTS)
      expect(
        [...nodes.values()].some((label) => label.startsWith(`<b>${concept}</b>`)),
        concept,
      ).toBe(true);
    const edges = [...body.matchAll(/^\s*(\w+) -\.?->(?:\|[^|]*\|)? (\w+)$/gm)];
    expect(edges.length).toBeGreaterThanOrEqual(CONCEPTS.length);
    for (const edge of edges) {
      expect(nodes.has(edge[1] as string), edge[0]).toBe(true);
      expect(nodes.has(edge[2] as string), edge[0]).toBe(true);
    }
  });

  it('links only to pages that are there', () => {
    for (const link of PAGE.matchAll(/\]\(([\w./-]+\.md)(?:#[\w-]+)?\)/g))
      expect(existsSync(join(REPO_ROOT, 'docs', link[1] as string)), link[1]).toBe(true);
  });
});
