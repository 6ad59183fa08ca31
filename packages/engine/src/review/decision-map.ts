// The decision map: for every tool of a catalogue, what one policy version does with its calls, decided
// by the real evaluator on a witness call in every piece of the tool's calls (docs/review.md, "Decision maps").
import type { CompiledPolicy } from '../policy/compile.ts';
import type { Effect, Member, ToolBinding } from '../policy/types.ts';
import { adjacent, formatInterval, type Interval, join } from './axis.ts';
import { decideCall, describeOutcome, type Outcome, outcomeKey } from './outcome.ts';
import { AnalysisBudget, type AnalysisLimits, boxWitness, splitPiece, versionViews } from './region-split.ts';
import { type Piece, type SubjectSpace, subjectSpace } from './subject-space.ts';

export interface DecisionMapOptions extends AnalysisLimits {
  /** The members at decision time: held calls name their eligible approvers, and nobody eligible denies. */
  members?: readonly Member[];
}

/** What a version does with the calls of one amount band: one outcome, or it depends on the arguments. */
export interface MapBand {
  /** The amounts of the band; null for calls without an amount. */
  amount: Interval | null;
  outcome?: Outcome;
  depends_on_arguments?: { rules: string[]; reason: string };
}

export type MapDecision = Effect | 'depends_on_amount' | 'depends_on_arguments';

export interface ToolDecision {
  tool: string;
  action: string;
  /** One effect for every call, or what the decision depends on (arguments outrank amounts). */
  decision: MapDecision;
  /** The outcome of every call, when there is one. */
  outcome?: Outcome;
  /** The amount bands, when the tool has an amount mapping and its calls are not all decided alike. */
  bands?: MapBand[];
  /** For `depends_on_arguments`: the rules whose argument conditions are involved, and why no outcome is given. */
  rules?: string[];
  reason?: string;
  words: string;
}

/**
 * The decision of every tool under a compiled policy.
 *
 * @example
 * decisionMap(policy, [{ name: 'issue_refund', action: 'refund.issue', amount: { pointer: '/amount', currency: 'USD' } }])[0].words
 * // 'issue_refund (refund.issue): [0, 100] allow (refund-auto); (100, 1000] require approval ...; no amount: deny (refund-over-limit, fail closed)'
 */
export function decisionMap(policy: CompiledPolicy, tools: readonly ToolBinding[], options: DecisionMapOptions = {}): ToolDecision[] {
  const budget = new AnalysisBudget(options);
  const kept = mapsKept.get(policy) ?? new Map<string, ToolDecision>();
  mapsKept.set(policy, kept);
  const who = options.members ? JSON.stringify(options.members) : '';
  return tools.map((tool) => {
    // A version's map of a tool is the same for every question asked of it: kept with the compiled policy.
    const key = `${JSON.stringify(tool)}\u0000${who}`;
    let found = kept.get(key);
    if (!found) {
      found = toolDecision(policy, tool, options, budget);
      if (kept.size >= MAPS_KEPT) kept.clear();
      kept.set(key, found);
    }
    return found;
  });
}

const MAPS_KEPT = 4096;
const mapsKept = new WeakMap<CompiledPolicy, Map<string, ToolDecision>>();

function toolDecision(policy: CompiledPolicy, tool: ToolBinding, options: DecisionMapOptions, budget: AnalysisBudget): ToolDecision {
  const subject = subjectSpace(tool, [policy]);
  const bands: MapBand[] = [];
  for (const piece of subject.pieces) {
    const amount = piece.amount === null ? null : piece.amount.interval;
    const band = bandOf(policy, subject, piece, options.members, budget);
    const last = bands[bands.length - 1];
    if (last?.amount && amount && adjacent(last.amount, amount) && bandKey(last) === bandKey(band)) {
      last.amount = join(last.amount, amount);
    } else bands.push({ ...band, amount });
  }
  const name = `${tool.name} (${tool.action})`;
  const depending = bands.filter((b) => b.depends_on_arguments);
  const keys = new Set(bands.map(bandKey));
  const first = bands[0] as MapBand;
  if (keys.size === 1 && first.outcome) {
    return {
      tool: tool.name,
      action: tool.action,
      decision: first.outcome.decision,
      outcome: first.outcome,
      words: `${name}: ${describeOutcome(first.outcome)}`,
    };
  }
  const words = `${name}: ${bands.map(bandWords).join('; ')}`;
  if (depending.length === 0) return { tool: tool.name, action: tool.action, decision: 'depends_on_amount', bands, words };
  const rules = [...new Set(depending.flatMap((b) => b.depends_on_arguments?.rules ?? []))];
  const reason = (depending[0] as MapBand).depends_on_arguments?.reason ?? '';
  const hasAmount = subject.amountMatters;
  return {
    tool: tool.name,
    action: tool.action,
    decision: 'depends_on_arguments',
    ...(hasAmount ? { bands } : {}),
    rules,
    reason,
    words: hasAmount ? words : `${name}: ${dependsWords(rules)}`,
  };
}

function bandOf(
  policy: CompiledPolicy,
  subject: SubjectSpace,
  piece: Piece,
  members: readonly Member[] | undefined,
  budget: AnalysisBudget,
): Omit<MapBand, 'amount'> {
  const space = piece.space;
  if (!space.complete) return { depends_on_arguments: { rules: piece.conditionRules, reason: space.reason } };
  let outcome: Outcome | undefined;
  let differs = false;
  // Leaves exact about fail-closed matches: each leaf's witness speaks for every call of it.
  splitPiece(space, versionViews(subject, piece, [policy]), budget, { failClosedExact: true }, ({ box }) => {
    const args = boxWitness(subject, piece, box);
    if (args === undefined) return;
    const o = decideCall(policy, subject.compiled, args, members);
    if (outcome === undefined) outcome = o;
    else if (outcomeKey(o, false) !== outcomeKey(outcome, false)) {
      differs = true;
      return false;
    } else if (outcome.failClosed && !o.failClosed) {
      // Fail closed for some arguments only (a value missing): the outcome is the same, say it plainly.
      const { failClosed: _, ...plain } = outcome;
      outcome = plain;
    }
    return undefined;
  });
  if (differs)
    return { depends_on_arguments: { rules: piece.conditionRules, reason: 'the rules decide these calls differently by their arguments' } };
  return outcome ? { outcome } : { depends_on_arguments: { rules: piece.conditionRules, reason: 'no witness call could be built' } };
}

function bandKey(b: Omit<MapBand, 'amount'>): string {
  return b.outcome ? outcomeKey(b.outcome) : `depends ${b.depends_on_arguments?.rules.join(',')}`;
}

function bandWords(b: MapBand): string {
  const where = b.amount === null ? 'no amount: ' : `${formatInterval(b.amount)} `;
  if (b.outcome) return `${where}${describeOutcome(b.outcome)}`;
  return `${where}${dependsWords(b.depends_on_arguments?.rules ?? [])}`;
}

function dependsWords(rules: readonly string[]): string {
  return `depends on arguments (rules ${rules.join(', ')})`;
}
