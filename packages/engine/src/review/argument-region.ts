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
  /**
   * The same, structured for a script: the value at `path` lies in the region when, for one alternative,
   * every test gives its result. One alternative per admitted vector; one test per condition on the path.
   */
  anyOf: ArgumentTest[][];
}

/** One condition on a path as data: `{op, operand}` (a single bound as its own op; two bounds as `range`) and the result it must give. */
export interface ArgumentTest {
  op: 'eq' | 'in' | 'starts_with' | 'gt' | 'gte' | 'lt' | 'lte' | 'range';
  operand: unknown;
  result: 'true' | 'false' | 'unknown';
}

const RESULT = { T: 'true', F: 'false', U: 'unknown' } as const;
const BOUNDS = ['gt', 'gte', 'lt', 'lte'] as const;

/** A condition as `{op, operand}`: its one operator, or `range` with its bounds. */
export function conditionTest(c: Condition): Omit<ArgumentTest, 'result'> {
  if (c.eq !== undefined) return { op: 'eq', operand: c.eq };
  if (c.in !== undefined) return { op: 'in', operand: [...c.in] };
  if (c.starts_with !== undefined) return { op: 'starts_with', operand: [...c.starts_with] };
  const bounds = BOUNDS.filter((k) => c[k] !== undefined);
  if (bounds.length === 1) return { op: bounds[0] as (typeof BOUNDS)[number], operand: c[bounds[0] as (typeof BOUNDS)[number]] };
  return { op: 'range', operand: Object.fromEntries(bounds.map((k) => [k, c[k]])) };
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
    const tests = p.conditions.map(conditionTest);
    const anyOf = vectors.map((v) => tests.map((t, k) => ({ ...t, result: RESULT[v[k] as 'T' | 'F' | 'U'] })));
    out.push({ path: p.path, conditions: p.conditions, vectors, words: constraintWords(p.path, p.conditions, vectors), anyOf });
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
