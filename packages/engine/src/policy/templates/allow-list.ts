// A rule that allows a list of action patterns (reads, rollbacks), and one example call per pattern.
import type { Effect, PolicyRule } from '../types.ts';
import { actionFor } from './patterns.ts';
import type { SuiteBuilder } from './suite-builder.ts';

/** A rule without amounts or approvers over `patterns` (allow or deny). */
export function listRule(id: string, patterns: readonly string[], effect: Exclude<Effect, 'require_approval'>): PolicyRule {
  return { id, actions: [...patterns], effect };
}

/**
 * One call per pattern, each on its own tool named after the action (`orders.*` is called as
 * `orders.read`), expected to be decided by rule `id`.
 */
export function listExamples(
  id: string,
  patterns: readonly string[],
  decision: Effect,
  suite: SuiteBuilder,
  segment = 'read',
  args: Record<string, unknown> = {},
): void {
  const done = new Set<string>();
  for (const pattern of patterns) {
    const action = actionFor(pattern, segment);
    if (done.has(action)) continue;
    done.add(action);
    const verb = decision === 'allow' ? 'allowed' : decision === 'deny' ? 'denied' : 'held for approval';
    suite.call(`${action} is ${verb} by ${id}`, suite.tool(action, action), { ...args }, decision, id);
  }
}
