// Small questions the sheet reader asks of the yaml package's nodes, and how it reports a problem: at a
// span of the text (offsets), so every refusal carries its line, column and end (docs/rule-sheets.md).
import { isAlias, isMap, isScalar, isSeq, type Node, type Pair } from 'yaml';
import type { Code } from '../codes/index.ts';

/** A span of the text: the offset of its first character and the offset just past its last. */
export type Span = readonly [number, number];

/** Reports one problem at a span; the code is UNSUPPORTED (sheet-model.ts) unless another is named. */
export type Refuse = (at: Span, reason: string, code?: Code) => void;

/** The span of a node's value (without trailing comments), or an empty span at `fallback`. */
export function spanOf(node: Node | null | undefined, fallback = 0): Span {
  const r = node?.range;
  return r ? [r[0], Math.max(r[0], r[1])] : [fallback, fallback];
}

/** An anchor or a tag on a node: outside the subset, a sheet says each thing once, in plain words. */
export function hasProperties(node: Node | null | undefined): boolean {
  return node !== null && node !== undefined && (node.anchor !== undefined || node.tag !== undefined);
}

export function keyName(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/**
 * Anchors, aliases and tags, on keys and values at any depth, are outside the subset: a sheet says each
 * thing once, in plain words. Walked with a stack, so no value's depth can exhaust the call stack.
 */
export function usesAnchorAliasOrTag(root: Node | null): boolean {
  const stack: (Node | null)[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as Node | null;
    if (node === null) continue;
    if (isAlias(node) || hasProperties(node)) return true;
    if (isSeq(node)) for (const item of node.items) stack.push(item as Node | null);
    if (isMap(node)) for (const pair of node.items) stack.push(pair.key as Node | null, pair.value as Node | null);
  }
  return false;
}

/** How many lists and mappings deep a value nests (a scalar is 0), walked with a stack. */
export function depthOf(root: Node | null): number {
  let deepest = 0;
  const stack: [Node | null, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [Node | null, number];
    if (isSeq(node) || isMap(node)) {
      deepest = Math.max(deepest, depth + 1);
      if (isSeq(node)) for (const item of node.items) stack.push([item as Node | null, depth + 1]);
      else for (const pair of node.items) stack.push([pair.key as Node | null, depth + 1], [pair.value as Node | null, depth + 1]);
    }
  }
  return deepest;
}
