// One witness call decided by the real evaluator (CompiledPolicy.decide, and evaluatePolicy when the
// call is held or denied, for its approvers and fail-closed matches), and how two outcomes compare:
// toward allow widens (docs/review.md, "Directions").
import { DEFAULT_APPROVERS } from '../policy/approvers.ts';
import type { CompiledPolicy } from '../policy/compile.ts';
import { type DecisionCode, evaluatePolicy } from '../policy/evaluate.ts';
import type { CompiledTool } from '../policy/tool.ts';
import type { Effect, Member } from '../policy/types.ts';

/** What a policy version does with a call: the decision, the deciding rule or code, and who may approve. */
export interface Outcome {
  decision: Effect;
  /** The deciding rule's id, or null when a code decided (the default, an invalid amount, ...). */
  rule: string | null;
  code: DecisionCode | null;
  /** For a held call: the roles and users the deciding rule (or the default) names. */
  approvers?: { roles: string[]; users: string[] };
  /** For a held call when members were given: the eligible members' IDs, sorted. */
  eligible?: string[];
  /** For a held call: how many distinct approvals it needs, when more than one. */
  quorum?: number;
  /** The deciding rule matched only because the amount or an argument could not be read. */
  failClosed?: true;
}

/** A fixed decision time: approval lifetimes do not change a decision without a delegation end. */
const DECISION_TIME = new Date(0);

/**
 * Decides one call with the real evaluator. With members, a held call whose approvers nobody eligible
 * can be becomes the deny the gate would give (NO_ELIGIBLE_APPROVER, TOO_MANY_APPROVERS). `explain` also
 * marks a fail-closed match (the explanation is the slow path, so the diff leaves it out).
 */
export function decideCall(
  policy: CompiledPolicy,
  tool: CompiledTool,
  args: unknown,
  members?: readonly Member[],
  explain = true,
): Outcome {
  const fast = policy.decide(tool, args);
  if (fast.decision === 'allow' || (!explain && fast.decision === 'deny'))
    return { decision: fast.decision, rule: fast.rule, code: fast.code };
  const full =
    explain || members ? evaluatePolicy(policy, tool, args, members ? { members, now: DECISION_TIME } : { now: DECISION_TIME }) : undefined;
  const outcome: Outcome = full ? { decision: full.decision, rule: full.rule, code: full.code } : { ...fast };
  if (outcome.decision === 'require_approval') {
    const rule = outcome.rule === null ? undefined : policy.rules.find((r) => r.id === outcome.rule);
    const named = rule?.source.approvers ?? DEFAULT_APPROVERS;
    outcome.approvers = { roles: [...(named.roles ?? [])].sort(), users: [...(named.users ?? [])].sort() };
    if (full && full.approvers !== null) outcome.eligible = [...full.approvers].sort();
    const quorum = named.quorum ?? 1;
    if (quorum > 1) outcome.quorum = quorum;
  }
  if (full && full.rule !== null && full.explanation.fail_closed.some((f) => f.rule === full.rule)) outcome.failClosed = true;
  return outcome;
}

/** What the caller gets: the decision and, for a held call, who may approve. Two outcomes with equal keys do the same. */
export function effectKey(o: Outcome): string {
  if (o.decision !== 'require_approval') return o.decision;
  const of = o.quorum === undefined ? '' : ` quorum ${o.quorum}`;
  if (o.eligible) return `require_approval eligible ${o.eligible.join(',')}${of}`;
  return `require_approval roles ${o.approvers?.roles.join(',') ?? ''} users ${o.approvers?.users.join(',') ?? ''}${of}`;
}

/** The effect and the rule or code that gave it (and, for map bands, whether it matched fail-closed). */
export function outcomeKey(o: Outcome, failClosed = true): string {
  return `${effectKey(o)} by ${o.rule ?? o.code}${failClosed && o.failClosed ? ' fail-closed' : ''}`;
}

export type Direction = 'widens' | 'narrows' | 'changes';

const RANK: Record<Effect, number> = { deny: 0, require_approval: 1, allow: 2 };

/**
 * Toward allow widens (deny -> require_approval -> allow); between two held outcomes a superset of
 * approvers (the eligible members when known, else the roles and users named) widens and a subset
 * narrows, and so does a smaller quorum and a larger one; anything else (more approvers but a larger quorum)
 * changes.
 *
 * @example
 * directionOf({ decision: 'allow', rule: 'a', code: null }, { decision: 'deny', rule: 'b', code: null }) // 'narrows'
 */
export function directionOf(from: Outcome, to: Outcome): Direction {
  if (RANK[to.decision] !== RANK[from.decision]) return RANK[to.decision] > RANK[from.decision] ? 'widens' : 'narrows';
  if (from.decision !== 'require_approval') return 'changes';
  const before = approverSet(from);
  const after = approverSet(to);
  const quorumBefore = from.quorum ?? 1;
  const quorumAfter = to.quorum ?? 1;
  // Easier to run: as many approvers or more, and as few approvals needed or fewer; harder: the other way round.
  const easier = [...before].every((a) => after.has(a)) && quorumAfter <= quorumBefore;
  const harder = [...after].every((a) => before.has(a)) && quorumAfter >= quorumBefore;
  if (easier && !harder) return 'widens';
  if (harder && !easier) return 'narrows';
  return 'changes';
}

function approverSet(o: Outcome): Set<string> {
  if (o.eligible) return new Set(o.eligible);
  return new Set([...(o.approvers?.roles ?? []).map((r) => `role:${r}`), ...(o.approvers?.users ?? []).map((u) => `user:${u}`)]);
}

/**
 * An outcome in words: `allow (refund-auto)`, `require approval by roles owner, admin (refund-approval)`,
 * `deny (DEFAULT)`, `deny (never, fail closed)`.
 */
export function describeOutcome(o: Outcome, withWho = true): string {
  const what = o.decision === 'require_approval' ? 'require approval' : o.decision;
  const by = `${o.rule ?? o.code}${o.failClosed ? ', fail closed' : ''}`;
  return `${what}${withWho ? approversInWords(o) : ''} (${by})`;
}

function approversInWords(o: Outcome): string {
  if (o.decision !== 'require_approval') return '';
  const of = o.quorum === undefined ? '' : ` (${o.quorum} of them)`;
  if (o.eligible) return ` by ${o.eligible.length} eligible${of}`;
  const parts: string[] = [];
  if (o.approvers?.roles.length) parts.push(`roles ${o.approvers.roles.join(', ')}`);
  if (o.approvers?.users.length) parts.push(`users ${o.approvers.users.join(', ')}`);
  return parts.length ? ` by ${parts.join('; ')}${of}` : '';
}
