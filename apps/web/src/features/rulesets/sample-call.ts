// A starting call for a catalogue tool, so picking a tool fills the call JSON with something runnable.
import type { CatalogueTool } from '@tollgate/engine';

/** The unescaped segments of a JSON Pointer (RFC 6901). Example: `pointerSegments('/a~1b')` is `['a/b']`. */
export function pointerSegments(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function setAt(target: Record<string, unknown>, segments: string[], value: unknown): void {
  let node = target;
  for (const [i, key] of segments.entries()) {
    if (i === segments.length - 1) {
      node[key] = value;
      return;
    }
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
}

/**
 * The call's JSON text for `tool`, its amount (when the catalogue maps one) set to `amount` as a decimal string.
 *
 * @example
 * sampleCallText({ name: 'issue_refund', action: 'refund.issue', kind: 'write', amount: { pointer: '/amount', currency: 'USD' } }, '50')
 * // '{\n  "tool": "issue_refund",\n  "arguments": {\n    "amount": "50"\n  }\n}'
 */
export function sampleCallText(tool: CatalogueTool, amount = '50'): string {
  const args: Record<string, unknown> = {};
  if (tool.amount) {
    const segments = pointerSegments(tool.amount.pointer);
    if (segments.length > 0) setAt(args, segments, amount);
    if (tool.amount.currency_pointer) setAt(args, pointerSegments(tool.amount.currency_pointer), tool.amount.currency);
  }
  return JSON.stringify({ tool: tool.name, arguments: args }, null, 2);
}
