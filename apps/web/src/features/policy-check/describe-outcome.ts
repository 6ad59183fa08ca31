// One line for a decision, expected or actual, as the examples table shows it: the effect and what decided it.

export interface OutcomeLike {
  decision: string;
  /** The deciding rule; null when no rule decided; undefined when an expectation leaves it open. */
  rule?: string | null;
  /** DEFAULT, INVALID_AMOUNT, ...; null or undefined when a rule decided or it is left open. */
  code?: string | null;
}

/**
 * Describes a decision.
 *
 * @example
 * describeOutcome({ decision: 'allow', rule: 'refund-auto', code: null }) // 'allow by refund-auto'
 * describeOutcome({ decision: 'deny', rule: null, code: 'DEFAULT' }) // 'deny (DEFAULT)'
 */
export function describeOutcome({ decision, rule, code }: OutcomeLike): string {
  if (typeof rule === 'string') return `${decision} by ${rule}`;
  if (typeof code === 'string') return `${decision} (${code})`;
  return rule === null ? `${decision}, no rule` : decision;
}
