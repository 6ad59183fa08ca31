// The rules of a policy's text as an outline: id, effect and where each rule starts, for the side panel.
import { type Position, readJsonText } from '@tollgate/engine';

export type OutlineEffect = 'allow' | 'require_approval' | 'deny' | 'unknown';

export interface OutlineRule {
  /** The rule's index in `rules`. */
  index: number;
  /** The rule's id, or `rule <n>` while it has none. */
  label: string;
  effect: OutlineEffect;
  /** Where the rule's object starts in the text. */
  at: Position;
}

const EFFECTS: readonly string[] = ['allow', 'require_approval', 'deny'];

/**
 * The rules in document order; null when the text is not JSON (the problems list says why).
 *
 * @example
 * outlineRules('{"rules": [{"id": "reads", "effect": "allow"}]}')
 * // [{ index: 0, label: 'reads', effect: 'allow', at: { line: 1, column: 12 } }]
 */
export function outlineRules(text: string): OutlineRule[] | null {
  const read = readJsonText(text);
  if (!read.ok) return null;
  const rules = (read.value as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(rules)) return [];
  return rules.map((rule: unknown, index) => {
    const r = rule !== null && typeof rule === 'object' ? (rule as Record<string, unknown>) : {};
    const effect = typeof r.effect === 'string' && EFFECTS.includes(r.effect) ? (r.effect as OutlineEffect) : 'unknown';
    const label = typeof r.id === 'string' && r.id !== '' ? r.id : `rule ${index + 1}`;
    const at = read.rangeOf(`/rules/${index}`)?.start ?? { line: 1, column: 1 };
    return { index, label, effect, at };
  });
}
