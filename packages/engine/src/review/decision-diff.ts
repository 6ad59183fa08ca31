// The decision diff: which calls two policy versions decide differently, exactly. Every subject's calls
// are cut into pieces on which both versions decide alike (amount thresholds of either, "no amount",
// argument classes); each piece is decided by the real evaluator under both on a witness call; pieces
// that change are joined into regions and said in words (docs/review.md).
import type { CompiledPolicy } from '../policy/compile.ts';
import { CompiledTool } from '../policy/tool.ts';
import type { Member, ToolBinding } from '../policy/types.ts';
import { type ArgumentConstraint, constraintHolds, constraintsOf } from './argument-region.ts';
import { adjacent, contains, formatInterval, type Interval, isPoint, join } from './axis.ts';
import { type Direction, decideCall, directionOf, effectKey, type Outcome, outcomeKey } from './outcome.ts';
import { AnalysisBudget, type AnalysisLimits, boxWitness, type ClassBox, joinBoxes, splitPiece, versionViews } from './region-split.ts';
import { type Piece, reachingRules, type SubjectSpace, subjectSpace } from './subject-space.ts';
import { catalogueSubjects, type DiffSubject, hypotheticalSubjects } from './subjects.ts';

export interface DiffOptions extends AnalysisLimits {
  /** The members at decision time: approvers compare as the eligible members, and nobody eligible denies. */
  members?: readonly Member[];
}

/** Where a change lies: an amount interval (null: no amount) in the tool's currency, and argument conditions. */
export interface Region {
  amount: Interval | null;
  /** The tool's amount currency; null when no rule of either version tests its amounts (then any amount). */
  currency: string | null;
  /** Conditions on the arguments, all of which hold in the region; empty for any arguments. */
  arguments: ArgumentConstraint[];
}

export interface DecisionChange {
  kind: 'change';
  subject: DiffSubject;
  region: Region;
  from: Outcome;
  to: Outcome;
  direction: Direction;
  /** A call in the region that the two versions decide as said (re-checkable). */
  witness: { tool: ToolBinding; arguments: Record<string, unknown> };
  words: string;
}

/** A region whose calls may change, but which cannot be decided without the arguments. */
export interface DependsOnArguments {
  kind: 'depends_on_arguments';
  subject: DiffSubject;
  region: Region;
  /** The rules, of either version, whose argument conditions are involved. */
  rules: string[];
  reason: string;
  words: string;
}

export type DiffEntry = DecisionChange | DependsOnArguments;

export interface DecisionDiff {
  subjects: DiffSubject[];
  entries: DiffEntry[];
  widens: boolean;
  narrows: boolean;
  /** Some region may change and is not decided without the arguments. */
  depends: boolean;
}

/**
 * The semantic difference of two compiled policy versions: for every subject (the catalogue's tools, or
 * hypothetical tools covering every class both versions tell apart), every region whose decision changes,
 * from what to what and in which direction, or that depends on arguments.
 *
 * @example
 * decisionDiff(v2, v1).entries.map((e) => e.words)
 * // ['refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)']
 */
export function decisionDiff(
  running: CompiledPolicy,
  candidate: CompiledPolicy,
  tools?: readonly ToolBinding[],
  options: DiffOptions = {},
): DecisionDiff {
  const budget = new AnalysisBudget(options);
  const subjects = tools ? catalogueSubjects(running, candidate, tools) : hypotheticalSubjects(running, candidate);
  const entries = subjects.flatMap((s) => subjectEntries(running, candidate, s, options, budget));
  return {
    subjects,
    entries,
    widens: entries.some((e) => e.kind === 'change' && e.direction === 'widens'),
    narrows: entries.some((e) => e.kind === 'change' && e.direction === 'narrows'),
    depends: entries.some((e) => e.kind === 'depends_on_arguments'),
  };
}

/** Whether a call of the tool lies in the region (the tool's own amount reading, the arguments' condition results). */
export function regionContains(region: Region, tool: ToolBinding, args: unknown): boolean {
  let compiled = compiledTools.get(tool);
  if (!compiled) {
    compiled = new CompiledTool(tool);
    compiledTools.set(tool, compiled);
  }
  const read = compiled.readAmount(args);
  if (read === null) return false;
  // A region of a tool whose amount no rule tests (currency null) holds every amount.
  if (region.currency !== null && (region.amount === null ? read !== undefined : read === undefined || !contains(region.amount, read))) {
    return false;
  }
  return region.arguments.every((c) => constraintHolds(c, args));
}

const compiledTools = new WeakMap<ToolBinding, CompiledTool>();

type Pending = { entry: DiffEntry; mergeKey: string };

function subjectEntries(
  running: CompiledPolicy,
  candidate: CompiledPolicy,
  subject: DiffSubject,
  options: DiffOptions,
  budget: AnalysisBudget,
): DiffEntry[] {
  if (sameReach(running, candidate, subject.tool)) return [];
  const space = subjectSpace(subject.tool, [running, candidate]);
  const currency = space.amountMatters ? (subject.tool.amount?.currency ?? null) : null;
  const out: Pending[] = [];
  let previous: Pending[] = [];
  for (const piece of space.pieces) {
    const current: Pending[] = [];
    for (const found of pieceEntries(running, candidate, subject, space, piece, currency, options.members, budget)) {
      // The same change in the amount piece just before: one region across both.
      const open = previous.find((p) => p.mergeKey === found.mergeKey);
      const was = open?.entry.region.amount;
      const now = found.entry.region.amount;
      if (open && was && now && adjacent(was, now)) {
        open.entry.region.amount = join(was, now);
        current.push(open);
      } else {
        out.push(found);
        current.push(found);
      }
    }
    previous = current;
  }
  return out.map((p) => {
    p.entry.words = entryWords(p.entry);
    return p.entry;
  });
}

/** Both versions try the same rules, in the same order, then the same default: no call can change. */
function sameReach(running: CompiledPolicy, candidate: CompiledPolicy, tool: ToolBinding): boolean {
  const compiled = new CompiledTool(tool);
  const reach = (p: CompiledPolicy) => JSON.stringify([p.document.default, reachingRules(p, compiled).map((r) => r.source)]);
  return reach(running) === reach(candidate);
}

function pieceEntries(
  running: CompiledPolicy,
  candidate: CompiledPolicy,
  subject: DiffSubject,
  space: SubjectSpace,
  piece: Piece,
  currency: string | null,
  members: readonly Member[] | undefined,
  budget: AnalysisBudget,
): Pending[] {
  const amount = piece.amount === null ? null : { ...piece.amount.interval };
  const args = piece.space;
  if (!args.complete) {
    const entry: DependsOnArguments = {
      kind: 'depends_on_arguments',
      subject,
      region: { amount, currency, arguments: [] },
      rules: piece.conditionRules,
      reason: args.reason,
      words: '',
    };
    return [{ entry, mergeKey: `depends ${piece.conditionRules.join(',')} ${args.reason}` }];
  }
  const groups = new Map<string, { from: Outcome; to: Outcome; boxes: ClassBox[] }>();
  const views = versionViews(space, piece, [running, candidate]);
  splitPiece(args, views, budget, { prune: true }, ({ box, decided }) => {
    const [a, b] = decided;
    // The same rule (content and id) or both defaults alike: every call of the box is decided alike.
    if (a && b ? a.signature === b.signature : a === b && running.document.default === candidate.document.default) return;
    const call = boxWitness(space, piece, box);
    if (call === undefined) return;
    // Unexplained: fail-closed matches differ from witness to witness inside one change.
    const from = decideCall(running, space.compiled, call, members, false);
    const to = decideCall(candidate, space.compiled, call, members, false);
    if (effectKey(from) === effectKey(to)) return;
    const key = `${outcomeKey(from, false)} -> ${outcomeKey(to, false)}`;
    const group = groups.get(key);
    if (group) group.boxes.push(box);
    else groups.set(key, { from, to, boxes: [box] });
  });
  const out: Pending[] = [];
  for (const [key, group] of groups) {
    for (const box of joinBoxes(group.boxes)) {
      const constraints = constraintsOf(
        args.paths,
        box.map((classes, i) => (classes.length === args.paths[i]?.classes.length ? null : classes)),
      );
      const entry: DecisionChange = {
        kind: 'change',
        subject,
        region: { amount, currency, arguments: constraints },
        from: group.from,
        to: group.to,
        direction: directionOf(group.from, group.to),
        witness: { tool: subject.tool, arguments: boxWitness(space, piece, box) as Record<string, unknown> },
        words: '',
      };
      // Slots may split the arguments differently: join on what the constraints say, not on class indices.
      out.push({ entry, mergeKey: `${key} | ${JSON.stringify(constraints.map((c) => [c.path, c.conditions, c.vectors]))}` });
    }
  }
  return out;
}

/** `refund.issue, amount in (100, 250] USD: allow -> require approval (narrows)`. */
function entryWords(e: DiffEntry): string {
  const alike = e.subject.alike?.length ? ` (and alike: ${e.subject.alike.join('; ')})` : '';
  const where = [`${e.subject.label}${alike}`];
  const r = e.region;
  if (r.currency !== null) {
    if (r.amount === null) where.push('no amount');
    else where.push(`amount ${isPoint(r.amount) ? '' : 'in '}${formatInterval(r.amount)} ${r.currency}`);
  }
  if (r.arguments.length > 0) where.push(r.arguments.map((c) => c.words).join(', '));
  if (e.kind === 'depends_on_arguments')
    return `${where.join(', ')}: may change, depends on arguments (rules ${e.rules.join(', ')}; ${e.reason})`;
  return `${where.join(', ')}: ${decisionWords(e.from, e.to)} -> ${decisionWords(e.to, e.from)} (${e.direction})`;
}

/** The decision, with who may approve only when both sides hold the call (then that is what changed). */
function decisionWords(o: Outcome, other: Outcome): string {
  if (o.decision !== 'require_approval') return o.decision;
  if (other.decision !== 'require_approval') return 'require approval';
  if (o.eligible) return `require approval by ${o.eligible.length} eligible (${o.eligible.join(', ')})`;
  const who = [...(o.approvers?.roles ?? []).map((r) => `role ${r}`), ...(o.approvers?.users ?? []).map((u) => `user ${u}`)];
  return `require approval by ${who.join(', ')}`;
}
