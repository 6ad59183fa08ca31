// What every operator family provides: its members, a validator and a compiler to a value test.
import type { Code } from '../codes/index.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import type { Tri } from './tri.ts';

/** Tests one selected argument value. */
export type ValueTest = (value: unknown) => Tri;

export interface OperatorFamily {
  /** The family's name as explanations show it. */
  name: string;
  /** The condition members that belong to this family. */
  members: readonly string[];
  /** Checks the family's operands in `condition`; pushes every problem. */
  validate(condition: Record<string, unknown>, path: string, problems: Diagnostic[]): void;
  /** Compiles a validated condition's operands into a test. */
  compile(condition: Record<string, unknown>): ValueTest;
}

export function problem(code: Code, path: string, message: string): Diagnostic {
  return { code, severity: 'error', path, message };
}

/** A JSON scalar an `eq` or `in` may compare with: strings, booleans, null and exact integers. */
export type Scalar = string | number | boolean | null;

export function scalarKind(value: unknown): 'string' | 'number' | 'boolean' | 'null' | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return 'number';
    default:
      return undefined;
  }
}

/** Validates one scalar operand; numbers must be safe integers, as only those are exact. */
export function checkScalar(value: unknown, path: string, problems: Diagnostic[]): boolean {
  const kind = scalarKind(value);
  if (kind === undefined) {
    problems.push(problem('INVALID_OPERAND', path, 'expected a JSON scalar: a string, an integer, true, false or null'));
    return false;
  }
  if (kind === 'number' && !Number.isSafeInteger(value)) {
    problems.push(
      problem('INEXACT_NUMBER', path, 'a number operand must be a safe integer; compare decimals with gt/gte/lt/lte and a decimal string'),
    );
    return false;
  }
  return true;
}
