// The argument axis of one amount piece, split only where a rule tells calls apart: starting from every
// argument class at once, each version's rules are tried in the evaluator's order on the whole box; a rule
// whose conditions some classes pass and others fail splits the box on that condition, and a box on which
// every version's deciding rule is fixed is a leaf. The leaves grow with the regions that exist, not with
// the product of the classes (docs/review.md, "Regions").
import { FALSE, UNKNOWN } from '../conditions/tri.ts';
import type { CompiledPolicy, CompiledRule } from '../policy/compile.ts';
import { NO_AMOUNT } from '../policy/tool.ts';
import { type ArgumentSpace, conditionKey } from './argument-space.ts';
import { type Piece, reachingRules, type SubjectSpace, witnessArguments } from './subject-space.ts';

/** Per path, the argument classes a box admits (indices into the path's classes, ascending). */
export type ClassBox = number[][];

/** How long and how large an analysis may grow, and a way to stop it. */
export interface AnalysisLimits {
  /** A time (Date.now() milliseconds) past which the analysis stops. */
  deadline?: number;
  /** Most regions (boxes, split or final) one analysis visits (default MAX_REGIONS). */
  maxRegions?: number;
  /** Stops the analysis when aborted (an AbortSignal, or anything with `aborted`). */
  signal?: { readonly aborted: boolean };
}

/** Most regions one analysis visits before it refuses as over budget. */
export const MAX_REGIONS = 5_000_000;

export type AnalysisStopCode = 'ANALYSIS_OVER_BUDGET' | 'ANALYSIS_CANCELLED';

/** An analysis stopped before its end: nothing of it is answered (never a partial region list). */
export class AnalysisStopped extends Error {
  readonly code: AnalysisStopCode;
  /** What ran out: the time, the regions, or a cancel. */
  readonly limit: 'time' | 'regions' | 'cancel';
  constructor(limit: 'time' | 'regions' | 'cancel', message: string) {
    super(message);
    this.name = 'AnalysisStopped';
    this.limit = limit;
    this.code = limit === 'cancel' ? 'ANALYSIS_CANCELLED' : 'ANALYSIS_OVER_BUDGET';
  }
}

/** Counts the work of one analysis against its limits; shared by every piece and subject it visits. */
export class AnalysisBudget {
  private nodes = 0;
  private readonly maxRegions: number;
  constructor(private readonly limits: AnalysisLimits = {}) {
    this.maxRegions = limits.maxRegions ?? MAX_REGIONS;
    this.check();
  }

  /** Called at every box; looks at the clock and the signal every 256 boxes. */
  step(): void {
    if (++this.nodes > this.maxRegions) throw new AnalysisStopped('regions', `the analysis needs more than ${this.maxRegions} regions`);
    if ((this.nodes & 255) === 0) this.check();
  }

  check(): void {
    if (this.limits.signal?.aborted) throw new AnalysisStopped('cancel', 'the analysis was cancelled');
    if (this.limits.deadline !== undefined && Date.now() > this.limits.deadline) {
      throw new AnalysisStopped('time', 'the analysis ran past its time budget');
    }
  }
}

/** A version's rules as the split sees them in one piece: those that can apply in its amount slot. */
interface RuleView {
  rule: CompiledRule;
  /** An allow needs every condition true; deny and require_approval apply unless one is false. */
  strict: boolean;
  /** Pairs of (path index, condition index at the path) for each of the rule's conditions. */
  refs: number[];
  /** Equal for rules of the same content (id included), so equal views decide alike. */
  signature: string;
}

/** A version's view of a piece: its rules in order and its default. */
export interface VersionView {
  policy: CompiledPolicy;
  rules: RuleView[];
}

/** Which rule decides every call of a box (null: the default), per version. */
export type Decided = RuleView | null;

export interface Leaf {
  box: ClassBox;
  decided: Decided[];
}

const F = 0;
const T = 1;
const U = 2;
const CODE: Record<string, number> = { F, T, U };

/** The letters each class gives each condition: letters[path][condition][class]. */
export function classLetters(space: ArgumentSpace & { complete: true }): Uint8Array[][] {
  return space.paths.map((p) =>
    p.conditions.map((_, c) => Uint8Array.from(p.classes.map((cls) => CODE[cls.vector[c] as string] as number))),
  );
}

/** The views of each version in one piece of a subject. */
export function versionViews(subject: SubjectSpace, piece: Piece, policies: readonly CompiledPolicy[]): VersionView[] {
  const space = piece.space;
  const index = new Map<string, [number, number]>();
  if (space.complete) {
    space.paths.forEach((p, i) => {
      p.conditions.forEach((c, k) => {
        index.set(`${p.path}\u0000${conditionKey(c)}`, [i, k]);
      });
    });
  }
  const amount = piece.amount === null ? NO_AMOUNT : piece.amount.witness;
  return policies.map((policy) => {
    const rules: RuleView[] = [];
    for (const rule of reachingRules(policy, subject.compiled)) {
      const strict = rule.effect === 'allow';
      const a = rule.amountResult(subject.compiled.currency, amount);
      if (a === FALSE || (strict && a === UNKNOWN)) continue;
      const refs: number[] = [];
      for (const c of rule.source.when ?? []) {
        const at = index.get(`${c.path}\u0000${conditionKey(c)}`);
        // Every live rule's conditions are in the piece's space (subjectSpace); anything else is a bug.
        if (at === undefined) throw new Error(`the condition on ${c.path} of rule ${rule.id} is not in the argument space`);
        refs.push(at[0], at[1]);
      }
      rules.push({ rule, strict, refs, signature: signatureOf(rule) });
    }
    return { policy, rules };
  });
}

const signatures = new WeakMap<CompiledRule, string>();

function signatureOf(rule: CompiledRule): string {
  let s = signatures.get(rule);
  if (s === undefined) {
    s = JSON.stringify(rule.source);
    signatures.set(rule, s);
  }
  return s;
}

/** A split of a box: the path, the condition, and whether to split by letter or by pass and block. */
type Split = { path: number; letters: Uint8Array; strict: boolean; byLetter: boolean };

/**
 * The leaves of a piece under the versions given: boxes on which every version's deciding rule is fixed.
 * With `prune`, a box on which two versions can only decide alike (the same rules left, in the same
 * order, and the same default) is dropped. With `failClosedExact`, a deciding rule's conditions are split
 * further where some classes pass them true and others unknown, so each leaf is fail-closed or not.
 */
export function splitPiece(
  space: ArgumentSpace & { complete: true },
  views: readonly VersionView[],
  budget: AnalysisBudget,
  options: { prune?: boolean; failClosedExact?: boolean } = {},
  visit: (leaf: Leaf) => unknown,
): void {
  const letters = classLetters(space);
  const root: ClassBox = space.paths.map((p) => p.classes.map((_, k) => k));
  const stack: ClassBox[] = [root];
  while (stack.length > 0) {
    const box = stack.pop() as ClassBox;
    budget.step();
    if (options.prune && views.length === 2 && sameRest(views[0] as VersionView, views[1] as VersionView, box, letters)) continue;
    let split: Split | undefined;
    const decided: Decided[] = [];
    for (const view of views) {
      const found = resolve(view, box, letters, options.failClosedExact === true);
      if (found !== null && 'path' in found) {
        split = found;
        break;
      }
      decided.push(found);
    }
    if (split) {
      // Pushed in reverse, so the leaves come out in class order.
      for (const part of partition(box, split).reverse()) stack.push(part);
      continue;
    }
    if (visit({ box, decided }) === false) return;
  }
}

/** The deciding rule of a version on a box, or the split it needs first. */
function resolve(view: VersionView, box: ClassBox, letters: Uint8Array[][], failClosedExact: boolean): Decided | Split {
  for (const r of view.rules) {
    let mixed = -1;
    let blocked = false;
    const refs = r.refs;
    for (let i = 0; i < refs.length; i += 2) {
      const classes = box[refs[i] as number] as number[];
      const row = (letters[refs[i] as number] as Uint8Array[])[refs[i + 1] as number] as Uint8Array;
      let pass = false;
      let block = false;
      for (let k = 0; k < classes.length; k++) {
        const l = row[classes[k] as number];
        if (l === F || (r.strict && l === U)) block = true;
        else pass = true;
        if (pass && block) break;
      }
      if (!pass) {
        blocked = true;
        break;
      }
      if (block && mixed < 0) mixed = i;
    }
    if (blocked) continue;
    if (mixed >= 0) {
      const path = refs[mixed] as number;
      return { path, letters: (letters[path] as Uint8Array[])[refs[mixed + 1] as number] as Uint8Array, strict: r.strict, byLetter: false };
    }
    if (failClosedExact) {
      for (let i = 0; i < refs.length; i += 2) {
        const path = refs[i] as number;
        const row = (letters[path] as Uint8Array[])[refs[i + 1] as number] as Uint8Array;
        const classes = box[path] as number[];
        const first = row[classes[0] as number];
        if (classes.some((k) => row[k] !== first)) return { path, letters: row, strict: r.strict, byLetter: true };
      }
    }
    return r;
  }
  return null;
}

function partition(box: ClassBox, split: Split): ClassBox[] {
  const groups = new Map<number, number[]>();
  for (const k of box[split.path] as number[]) {
    const l = split.letters[k] as number;
    const key = split.byLetter ? l : l === F || (split.strict && l === U) ? 0 : 1;
    const group = groups.get(key);
    if (group) group.push(k);
    else groups.set(key, [k]);
  }
  return [...groups.keys()]
    .sort((a, b) => a - b)
    .map((key) => box.map((classes, i) => (i === split.path ? (groups.get(key) as number[]) : classes)));
}

/** Both versions have the same rules left on the box (those not blocked everywhere in it), in order, and the same default. */
function sameRest(a: VersionView, b: VersionView, box: ClassBox, letters: Uint8Array[][]): boolean {
  if (a.policy.document.default !== b.policy.document.default) return false;
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.rules.length && blockedOn(a.rules[i] as RuleView, box, letters)) i++;
    while (j < b.rules.length && blockedOn(b.rules[j] as RuleView, box, letters)) j++;
    if (i === a.rules.length || j === b.rules.length) return i === a.rules.length && j === b.rules.length;
    if ((a.rules[i] as RuleView).signature !== (b.rules[j] as RuleView).signature) return false;
    i++;
    j++;
  }
}

function blockedOn(r: RuleView, box: ClassBox, letters: Uint8Array[][]): boolean {
  const refs = r.refs;
  for (let i = 0; i < refs.length; i += 2) {
    const classes = box[refs[i] as number] as number[];
    const row = (letters[refs[i] as number] as Uint8Array[])[refs[i + 1] as number] as Uint8Array;
    let pass = false;
    for (let k = 0; k < classes.length && !pass; k++) {
      const l = row[classes[k] as number];
      pass = !(l === F || (r.strict && l === U));
    }
    if (!pass) return true;
  }
  return false;
}

/** The first class of each path: a combination inside the box. */
export function firstCombo(box: ClassBox): number[] {
  return box.map((classes) => classes[0] as number);
}

/**
 * Joins disjoint boxes that differ at one path only, until none do: the same set of calls, in fewer
 * boxes. Each round groups the boxes by everything but one path, so it costs boxes × paths.
 */
export function joinBoxes(input: readonly ClassBox[]): ClassBox[] {
  let boxes = input.map((b) => b.map((c) => [...c]));
  let changed = true;
  while (changed && boxes.length > 1) {
    changed = false;
    const width = (boxes[0] as ClassBox).length;
    for (let d = 0; d < width; d++) {
      const groups = new Map<string, ClassBox>();
      const out: ClassBox[] = [];
      for (const box of boxes) {
        const key = box.map((c, i) => (i === d ? '' : c.join(','))).join('|');
        const open = groups.get(key);
        if (open) {
          open[d] = [...(open[d] as number[]), ...(box[d] as number[])].sort((x, y) => x - y);
          changed = true;
        } else {
          groups.set(key, box);
          out.push(box);
        }
      }
      boxes = out;
    }
  }
  return boxes.sort(compareBoxes);
}

function compareBoxes(a: ClassBox, b: ClassBox): number {
  for (let i = 0; i < a.length; i++) {
    const d = ((a[i] as number[])[0] as number) - ((b[i] as number[])[0] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** A witness call in the box: its first combination of classes, else the next that the tool reads as the slot's amount. */
export function boxWitness(space: SubjectSpace, piece: Piece, box: ClassBox): Record<string, unknown> | undefined {
  const first = witnessArguments(space, piece, firstCombo(box));
  if (first !== undefined) return first;
  for (let i = 0; i < box.length; i++) {
    for (const k of (box[i] as number[]).slice(1)) {
      const combo = firstCombo(box);
      combo[i] = k;
      const call = witnessArguments(space, piece, combo);
      if (call !== undefined) return call;
    }
  }
  return undefined;
}
