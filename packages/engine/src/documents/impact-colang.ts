// What a Colang policy edit widens, flow by flow (by action): a flow removed, a refusal turned into a
// guard, or a guard that allows a call the running guard did not (not shown to allow no more).
import { parseColang } from '../colang/parse.ts';
import type { Rulebook } from '../rulebook/types.ts';
import { guardImplies, printGuard } from './guard-implication.ts';
import type { Impact } from './types.ts';
import { impactOf } from './types.ts';

/**
 * Compares a new Colang policy with the running one. Every flow restricts its action (deny by default),
 * so a first policy widens nothing.
 *
 * @example
 * analyzeColangImpact('define flow refund_card\n  allow when $a and $b\n', 'define flow refund_card\n  allow when $a\n')
 * // { widensSecurity: true, widenedSubjects: ['flows/refund_card allow when $a and $b -> $a'] }
 */
export function analyzeColangImpact(runningText: string | undefined, newText: string): Impact {
  const after = parseColang(newText);
  if (!after.ok || runningText === undefined) return impactOf([]);
  const before = parseColang(runningText);
  if (!before.ok) return impactOf([]);
  return impactOf(rulebookSubjects(before.rulebook, after.rulebook));
}

/**
 * Every widening from one rulebook to another, in action order.
 *
 * @example
 * rulebookSubjects(running, { ...running, flows: [] }) // ['flows/delete_customer removed', ...]
 */
export function rulebookSubjects(before: Rulebook, after: Rulebook): string[] {
  const next = new Map(after.flows.map((f) => [f.action, f]));
  const out: string[] = [];
  for (const flow of before.flows) {
    const now = next.get(flow.action);
    const prefix = `flows/${flow.action}`;
    if (!now) out.push(`${prefix} removed`);
    else if ('refuse' in now) continue;
    else if ('refuse' in flow) out.push(`${prefix} refuse -> allow when ${printGuard(now.allow_when)}`);
    else if (!guardImplies(now.allow_when, flow.allow_when)) {
      out.push(`${prefix} allow when ${printGuard(flow.allow_when)} -> ${printGuard(now.allow_when)}`);
    }
  }
  return out;
}
