// Argument regions: sets of argument classes written as boxes (per path, the classes allowed), what they
// say in words, and whether a call's arguments lie in one (docs/review.md, "Arguments").
import { CompiledCondition, type Condition } from '../conditions/condition.ts';
import type { Tri } from '../conditions/tri.ts';
import type { PathSpace } from './argument-space.ts';

/** At one path, the combinations of condition results (T, F, U per condition) a region admits. */
export interface ArgumentConstraint {
  path: string;
  conditions: Condition[];
  vectors: string[];
  words: string;
}

/** Per path, the class indices a box admits, or null for every class. */
export type Box = (number[] | null)[];

/** The constraints a box puts on the arguments: one per path it restricts. */
export function constraintsOf(paths: readonly PathSpace[], box: Box): ArgumentConstraint[] {
  const out: ArgumentConstraint[] = [];
  paths.forEach((p, i) => {
    const allowed = box[i];
    if (allowed === null || allowed === undefined) return;
    const vectors = allowed.map((k) => (p.classes[k] as { vector: string }).vector);
    out.push({ path: p.path, conditions: p.conditions, vectors, words: constraintWords(p.path, p.conditions, vectors) });
  });
  return out;
}

const LETTER = ['F', 'T', 'U'] as const;

const compiledConditions = new WeakMap<Condition, CompiledCondition>();

/** Whether the arguments' value at the constraint's path gives one of its admitted results. */
export function constraintHolds(c: ArgumentConstraint, args: unknown): boolean {
  let vector = '';
  for (const cond of c.conditions) {
    let compiled = compiledConditions.get(cond);
    if (!compiled) {
      compiled = new CompiledCondition(cond);
      compiledConditions.set(cond, compiled);
    }
    vector += LETTER[compiled.evaluate(args) as Tri];
  }
  return c.vectors.includes(vector);
}

function constraintWords(path: string, conditions: readonly Condition[], vectors: readonly string[]): string {
  const alternatives = vectors.map((v) => {
    if (/^U+$/.test(v)) return `${path} unreadable (missing or another type)`;
    return conditions
      .map((c, i) => {
        const test = `${path} ${operatorWords(c)}`;
        const letter = v[i];
        return letter === 'T' ? test : letter === 'F' ? `not ${test}` : `${test} unknown`;
      })
      .join(' and ');
  });
  return alternatives.length === 1 ? (alternatives[0] as string) : `(${alternatives.join(' or ')})`;
}

function operatorWords(c: Condition): string {
  if (c.eq !== undefined) return `eq ${JSON.stringify(c.eq)}`;
  if (c.in !== undefined) return `in ${JSON.stringify(c.in)}`;
  if (c.starts_with !== undefined) return `starts_with ${JSON.stringify(c.starts_with)}`;
  return (['gt', 'gte', 'lt', 'lte'] as const)
    .filter((k) => c[k] !== undefined)
    .map((k) => `${k} ${c[k]}`)
    .join(', ');
}
