// One argument condition: a JSON Pointer (with `*` over arrays), `for: all|any`, and exactly one
// operator family, decided in three-valued logic (docs/policy.md, "Argument conditions").
import type { Diagnostic } from '../source/diagnostic.ts';
import { MISSING, parsePointer, resolvePointer, step } from '../source/json-pointer.ts';
import { boundsFamily } from './bounds.ts';
import { eqFamily } from './eq.ts';
import type { OperatorFamily, ValueTest } from './family.ts';
import { problem } from './family.ts';
import { inFamily } from './in.ts';
import { startsWithFamily } from './starts-with.ts';
import { FALSE, TRUE, type Tri, UNKNOWN } from './tri.ts';

export const OPERATOR_FAMILIES: readonly OperatorFamily[] = [eqFamily, inFamily, startsWithFamily, boundsFamily];
const CONDITION_MEMBERS = new Set(['path', 'for', ...OPERATOR_FAMILIES.flatMap((f) => f.members)]);
export const MAX_POINTER_LENGTH = 512;

/** A condition as written in a document. */
export interface Condition {
  path: string;
  for?: 'all' | 'any';
  eq?: string | number | boolean | null;
  in?: (string | number | boolean | null)[];
  starts_with?: string[];
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

/** Validates a condition object; pushes every problem with its path. Returns whether it is sound. */
export function validateCondition(condition: unknown, path: string, problems: Diagnostic[]): boolean {
  const before = problems.length;
  if (condition === null || typeof condition !== 'object' || Array.isArray(condition)) {
    problems.push(problem('INVALID_TYPE', path, 'a condition is an object such as {"path": "/environment", "eq": "production"}'));
    return false;
  }
  const c = condition as Record<string, unknown>;
  for (const key of Object.keys(c)) {
    if (!CONDITION_MEMBERS.has(key)) problems.push(unknownMember(path, key, CONDITION_MEMBERS));
  }
  let wildcard = false;
  if (c.path === undefined) {
    problems.push(problem('MISSING_MEMBER', path, 'a condition needs "path", a JSON Pointer into the arguments such as "/environment"'));
  } else if (typeof c.path !== 'string') {
    problems.push(problem('INVALID_TYPE', `${path}/path`, 'expected a JSON Pointer string such as "/environment"'));
  } else {
    const tokens = parsePointer(c.path);
    if (tokens === undefined || tokens.length === 0 || c.path.length > MAX_POINTER_LENGTH) {
      problems.push(
        problem(
          'INVALID_POINTER',
          `${path}/path`,
          `expected an RFC 6901 pointer into the arguments, starting with "/", with ~0 for ~ and ~1 for /, at most ${MAX_POINTER_LENGTH} characters`,
        ),
      );
    } else wildcard = tokens.includes('*');
  }
  if (c.for !== undefined) {
    if (c.for !== 'all' && c.for !== 'any') {
      problems.push(problem('INVALID_VALUE', `${path}/for`, 'expected "all" or "any"'));
    } else if (typeof c.path === 'string' && !wildcard) {
      problems.push(problem('FOR_WITHOUT_WILDCARD', `${path}/for`, '"for" applies only to a path with a * token; remove it'));
    }
  } else if (wildcard) {
    problems.push(
      problem('WILDCARD_WITHOUT_FOR', path, 'a path with * needs "for": "all" (every element) or "any" (at least one element)'),
    );
  }
  const families = OPERATOR_FAMILIES.filter((f) => f.members.some((m) => c[m] !== undefined));
  if (families.length === 0) {
    problems.push(problem('MISSING_OPERATOR', path, 'add one operator: eq, in, starts_with, or gt/gte/lt/lte'));
  } else if (families.length > 1) {
    problems.push(
      problem(
        'MULTIPLE_OPERATORS',
        path,
        `a condition has exactly one operator family; this one has ${families.map((f) => f.name).join(' and ')}: split it into two conditions`,
      ),
    );
  } else (families[0] as OperatorFamily).validate(c, path, problems);
  return problems.length === before;
}

export function unknownMember(path: string, key: string, known: Iterable<string>): Diagnostic {
  return problem(
    'UNKNOWN_MEMBER',
    `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    `unknown member "${key}"; expected one of ${[...known].join(', ')}`,
  );
}

/** The operator family a validated condition uses. */
export function familyOf(condition: Condition): OperatorFamily {
  const c = condition as unknown as Record<string, unknown>;
  return OPERATOR_FAMILIES.find((f) => f.members.some((m) => c[m] !== undefined)) as OperatorFamily;
}

/** A condition compiled once: pointer pre-split, operands pre-read. Not reentrant (evaluation is synchronous). */
export class CompiledCondition {
  readonly source: Condition;
  private readonly tokens: readonly string[];
  private readonly wildcard: boolean;
  private readonly all: boolean;
  private readonly test: ValueTest;
  // Counters for one wildcard walk; reset per evaluation so nothing is allocated.
  private trues = 0;
  private falses = 0;
  private unknowns = 0;

  constructor(condition: Condition) {
    this.source = condition;
    this.tokens = parsePointer(condition.path) ?? [];
    this.wildcard = this.tokens.includes('*');
    this.all = condition.for !== 'any';
    this.test = familyOf(condition).compile(condition as unknown as Record<string, unknown>);
  }

  /** Decides the condition on an arguments object. */
  evaluate(args: unknown): Tri {
    if (!this.wildcard) {
      const value = resolvePointer(args, this.tokens);
      return value === MISSING ? UNKNOWN : this.test(value);
    }
    this.trues = 0;
    this.falses = 0;
    this.unknowns = 0;
    this.walk(args, 0);
    if (this.all) {
      if (this.falses > 0) return FALSE;
      return this.unknowns > 0 || this.trues === 0 ? UNKNOWN : TRUE;
    }
    if (this.trues > 0) return TRUE;
    return this.unknowns > 0 || this.falses === 0 ? UNKNOWN : FALSE;
  }

  /** Visits every selected value; returns true to stop early once the answer is settled. */
  private walk(value: unknown, i: number): boolean {
    if (i === this.tokens.length) {
      const t = this.test(value);
      if (t === TRUE) this.trues++;
      else if (t === FALSE) this.falses++;
      else this.unknowns++;
      return this.all ? this.falses > 0 : this.trues > 0;
    }
    const token = this.tokens[i] as string;
    if (token === '*' && Array.isArray(value)) {
      for (let k = 0; k < value.length; k++) {
        if (this.walk(value[k], i + 1)) return true;
      }
      return false;
    }
    // On an object, * names the member "*" (RFC 6901); a missing step makes this element unreadable.
    const next = step(value, token);
    if (next === MISSING) {
      this.unknowns++;
      return false;
    }
    return this.walk(next, i + 1);
  }
}
