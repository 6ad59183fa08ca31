// What an agent edit widens: delegated actions added, the spending limit raised or removed, the delegation
// extended, disclosure raised, or another catalogue, rulebook, policy or rule set named (or one removed).
import { compareDecimal } from '../conditions/decimal.ts';
import { uncoveredPatterns } from './action-patterns.ts';
import { type Agent, DISCLOSURE_LEVELS, readAgent } from './agent.ts';
import type { Impact } from './types.ts';
import { impactOf } from './types.ts';
import { parseDateTime } from './values.ts';

/**
 * Compares a new agent with the running one. A new agent's delegated actions are widenings: nothing was
 * delegated before it.
 *
 * @example
 * analyzeAgentImpact(running, running.replace('actions: [refund.issue]', 'actions: [refund.*]'))
 * // { widensSecurity: true, widenedSubjects: ['delegation actions + refund.*'] }
 */
export function analyzeAgentImpact(runningText: string | undefined, newText: string): Impact {
  const after = readAgent(newText);
  if (!after.ok) return impactOf([]);
  const before = runningText === undefined ? undefined : readAgent(runningText);
  if (!before?.ok) return impactOf(after.agent.delegation.actions.map((p) => `delegation actions + ${p}`));
  return impactOf(agentSubjects(before.agent, after.agent));
}

/**
 * Every widening from one agent to another.
 *
 * @example
 * agentSubjects(agent, { ...agent, disclosure: 'conditions' }) // ['disclosure rule -> conditions'] (from rule)
 */
export function agentSubjects(before: Agent, after: Agent): string[] {
  const out: string[] = [];
  // The analyser cannot compare two different documents, so naming another one is flagged for review.
  if (before.catalogue !== after.catalogue) out.push(`catalogue ${before.catalogue} -> ${after.catalogue}`);
  if (before.rulebook !== undefined && after.rulebook === undefined) out.push(`rulebook ${before.rulebook} removed`);
  else if (before.rulebook !== undefined && before.rulebook !== after.rulebook)
    out.push(`rulebook ${before.rulebook} -> ${after.rulebook}`);
  const governing = (a: Agent) => a.policy ?? a.ruleset;
  if (governing(before) !== governing(after)) {
    const key = after.policy !== undefined ? 'policy' : 'ruleset';
    out.push(`${key} ${governing(before)} -> ${governing(after)}`);
  } else if (after.ruleset !== undefined && before.ruleset_version !== after.ruleset_version) {
    // Another version of the same set is another list of pins: flagged for review like another set.
    out.push(`ruleset_version ${before.ruleset_version ?? 'active'} -> ${after.ruleset_version ?? 'active'}`);
  }
  const d = before.delegation;
  const e = after.delegation;
  out.push(...uncoveredPatterns(d.actions, e.actions).map((p) => `delegation actions + ${p}`));
  if (d.spending_limit && !e.spending_limit) out.push('delegation spending_limit removed');
  else if (d.spending_limit && e.spending_limit) {
    if (d.spending_limit.currency !== e.spending_limit.currency) {
      out.push(`delegation spending_limit currency ${d.spending_limit.currency} -> ${e.spending_limit.currency}`);
    } else if (compareDecimal(e.spending_limit.amount, d.spending_limit.amount) > 0) {
      out.push(`delegation spending_limit ${d.spending_limit.amount} -> ${e.spending_limit.amount}`);
    }
  }
  if (d.valid_until !== undefined) {
    if (e.valid_until === undefined) out.push('delegation valid_until removed');
    else if ((parseDateTime(e.valid_until) ?? 0) > (parseDateTime(d.valid_until) ?? 0)) {
      out.push(`delegation valid_until ${d.valid_until} -> ${e.valid_until}`);
    }
  }
  if (DISCLOSURE_LEVELS.indexOf(after.disclosure) > DISCLOSURE_LEVELS.indexOf(before.disclosure)) {
    out.push(`disclosure ${before.disclosure} -> ${after.disclosure}`);
  }
  return out;
}
