// Where a value of a JSON text is, for editors' markers: the positions readJsonText's `rangeOf` answers, found
// in jsonc-parser's tree (built only when asked, for a text already read whole).
import type { Node } from 'jsonc-parser';
import type { Range } from './diagnostic.ts';
import { positionAt } from './diagnostic.ts';
import { arrayIndex, parsePointer } from './json-pointer.ts';

export function rangeAt(text: string, offset: number, length: number): Range {
  return { start: positionAt(text, offset), end: positionAt(text, offset + length) };
}

export function nodeAt(tree: Node, pointer: string): Node | undefined {
  const tokens = parsePointer(pointer);
  if (tokens === undefined) return undefined;
  let node: Node | undefined = tree;
  for (const token of tokens) {
    if (node?.type === 'array') {
      // The same index rule as resolvePointer: decimal, no leading zeros.
      const index = arrayIndex(token);
      node = index < 0 ? undefined : node.children?.[index];
    } else if (node?.type === 'object') {
      const property: Node | undefined = node.children?.find((p) => p.children?.[0]?.value === token);
      node = property?.children?.[1];
    } else return undefined;
  }
  return node;
}
