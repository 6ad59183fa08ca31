// What a rule set edit widens: a pin dropped (its rules no longer judge), or a pin moved to another
// version unless the moved document's own impact shows the new version widens nothing.
import { type Ruleset, readRuleset } from './ruleset.ts';
import type { Impact, ImpactContext } from './types.ts';
import { impactOf } from './types.ts';

/**
 * Compares a new rule set with the running one. Every pinned document is judged and deny anywhere wins,
 * so a pin added only restricts; a new rule set governs no agent until one names it, so it widens nothing.
 *
 * @example
 * analyzeRulesetImpact(running, moved) // { widensSecurity: true, widenedSubjects: ['pins/policies/refunds.policy.json 2 -> 3'] }
 */
export function analyzeRulesetImpact(runningText: string | undefined, newText: string, context: ImpactContext = {}): Impact {
  const after = readRuleset(newText);
  if (!after.ok || runningText === undefined) return impactOf([]);
  const before = readRuleset(runningText);
  if (!before.ok) return impactOf([]);
  return impactOf(rulesetSubjects(before.ruleset, after.ruleset, context));
}

/**
 * Every widening from one rule set to another, in the running set's pin order.
 *
 * @example
 * rulesetSubjects({ ...set, pins: [{ rule_id: 'colang/a.co', version_id: 1 }] }, { ...set, pins: [{ rule_id: 'colang/a.co', version_id: 2 }] })
 * // ['pins/colang/a.co 1 -> 2']
 */
export function rulesetSubjects(before: Ruleset, after: Ruleset, context: ImpactContext = {}): string[] {
  const next = new Map(after.pins.map((p) => [p.rule_id, p]));
  const out: string[] = [];
  for (const pin of before.pins) {
    const prefix = `pins/${pin.rule_id}`;
    const now = next.get(pin.rule_id);
    if (!now) {
      out.push(`${prefix} dropped`);
      continue;
    }
    if (now.version_id === pin.version_id) continue;
    const move = `${prefix} ${pin.version_id ?? 'running'} -> ${now.version_id ?? 'running'}`;
    const impact = context.impactOfPin?.(pin.rule_id, pin.version_id, now.version_id);
    if (impact === undefined) out.push(move);
    else if (impact.widensSecurity) out.push(move, ...impact.widenedSubjects.map((s) => `${prefix} ${s}`));
  }
  return out;
}
