// Decision maps and impact previews in the console's words (docs/review.md): decisions, outcomes, bands and
// the rules involved, read from the API's answers.
import type { ReviewOutcome, ToolDecision } from './api/types.ts';

type Band = NonNullable<ToolDecision['bands']>[number];

/**
 * A decision as the console says it; a tool whose calls the rules decide by their amount or other arguments
 * "depends on arguments".
 *
 * @example
 * decisionLabel('depends_on_amount') // 'depends on arguments'
 */
export function decisionLabel(decision: ToolDecision['decision']): string {
  if (decision === 'depends_on_amount' || decision === 'depends_on_arguments') return 'depends on arguments';
  return decision === 'require_approval' ? 'require approval' : decision;
}

/** Who may approve a held call: the roles and users the rule names, and how many members are eligible. */
export function approversWords(o: ReviewOutcome): string | null {
  if (!o.approvers) return null;
  const named = [...o.approvers.roles.map((r) => `role ${r}`), ...o.approvers.users.map((u) => `user ${u}`)].join(', ');
  const eligible = o.eligible === undefined ? '' : ` (${o.eligible.length} eligible ${o.eligible.length === 1 ? 'member' : 'members'})`;
  return `${named}${eligible}`;
}

/**
 * An outcome in words: the decision, who may approve it, and the rule or code that decided it.
 *
 * @example
 * outcomeWords({ decision: 'deny', rule: null, code: 'DEFAULT', fail_closed: false }) // 'deny (DEFAULT)'
 */
export function outcomeWords(o: ReviewOutcome): string {
  const who = approversWords(o);
  const by = o.rule ?? o.code ?? 'unknown';
  return `${decisionLabel(o.decision)}${who ? ` by ${who}` : ''} (${by}${o.fail_closed ? ', fail closed' : ''})`;
}

/** A band of a tool's calls in words: `amount in (100, 1000]: require approval by role owner (refund-approval)`. */
export function bandWords(band: Band): string {
  const where = band.amount === null ? 'no amount' : `amount in ${band.amount.words}`;
  if (band.outcome) return `${where}: ${outcomeWords(band.outcome)}`;
  return `${where}: depends on arguments (rules ${band.depends_on_arguments?.rules.join(', ') ?? ''})`;
}

/**
 * The rules that decide a tool's calls, in the order first met: a band's deciding rule, and the rules
 * whose argument conditions are involved.
 */
export function rulesInvolved(tool: ToolDecision): string[] {
  const rules = new Set<string>();
  for (const band of tool.bands ?? []) {
    if (band.outcome?.rule) rules.add(band.outcome.rule);
    for (const r of band.depends_on_arguments?.rules ?? []) rules.add(r);
  }
  for (const r of tool.rules ?? []) rules.add(r);
  return [...rules];
}

/** The engine's `a -> b` written with an arrow, as people read it. */
export function withArrows(words: string): string {
  return words.replaceAll(' -> ', ' → ');
}
