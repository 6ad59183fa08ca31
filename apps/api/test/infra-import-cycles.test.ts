// No source file of the repository is in an import cycle (docs/architecture.md: the layers import one
// way). dpdm parses every import (type-only and dynamic ones too: a cycle of types still ties two modules
// together) and resolves it; the strongly connected components of that graph are exactly the files in a
// cycle, so none is missed the way a depth-first listing of back edges can miss one.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DependencyTree, parseDependencyTree } from 'dpdm';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** Every source file, tests and test helpers left out (a test may import what it tests in any shape). */
const SOURCES = [
  'packages/*/src/**/*.ts',
  'apps/api/src/**/*.ts',
  'apps/api/bin/*.mjs',
  'apps/web/src/**/*.ts',
  'apps/web/src/**/*.tsx',
  'bench/src/**/*.ts',
  'scripts/*.ts',
  'scripts/*.mjs',
];
const NOT_SOURCE = /\.test\.tsx?$|\.reference\.ts$|\/node_modules\//;

/** The import graph between source files, by path from the repository root. */
async function importGraph(): Promise<Map<string, string[]>> {
  const tree: DependencyTree = await parseDependencyTree(SOURCES, {
    context: root,
    cwd: root,
    transform: false,
    skipDynamicImports: false,
    exclude: NOT_SOURCE,
  });
  const graph = new Map<string, string[]>();
  const rel = (file: string) => relative(root, file).split('\\').join('/');
  for (const [file, deps] of Object.entries(tree)) {
    if (NOT_SOURCE.test(file)) continue;
    const targets = (deps ?? []).flatMap((d) => (d.id === null || NOT_SOURCE.test(d.id) ? [] : [rel(d.id)]));
    graph.set(rel(file), targets);
  }
  return graph;
}

/** Tarjan's strongly connected components; those of two or more files, or one importing itself, are cycles. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One path around a cycle, for the failure message: a -> b -> ... -> a. */
function pathAround(graph: Map<string, string[]>, component: string[]): string {
  const members = new Set(component);
  const start = component[0] as string;
  const from = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift() as string;
    for (const w of graph.get(v) ?? []) {
      if (!members.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at: string | undefined = v; at !== undefined && at !== start; at = from.get(at)) path.splice(1, 0, at);
        return [...path, start].join(' -> ');
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return component.join(' <-> ');
}

it('finds no source file in an import cycle', { timeout: 180_000 }, async () => {
  const graph = await importGraph();
  expect(graph.size, 'the sources were found').toBeGreaterThan(300);
  const found = cycles(graph).map((c) => pathAround(graph, c));
  expect(found, 'import cycles (move what both sides need into a module of its own)').toEqual([]);
});
