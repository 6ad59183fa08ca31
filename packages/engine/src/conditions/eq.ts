// `eq`: the argument equals one JSON scalar. Another type is indeterminate, not false (docs/policy.md,
// "Argument conditions").
import { JsonNumber } from '../source/json-number.ts';
import { agreed } from './bounds.ts';
import { compareDecimal } from './decimal.ts';
import type { OperatorFamily, Scalar } from './family.ts';
import { checkScalar, scalarKind } from './family.ts';
import { FALSE, TRUE, type Tri, UNKNOWN } from './tri.ts';

export const eqFamily: OperatorFamily = {
  name: 'eq',
  members: ['eq'],
  validate(condition, path, problems) {
    checkScalar(condition.eq, `${path}/eq`, problems);
  },
  compile(condition) {
    const operand = condition.eq as Scalar;
    return (value) => compareScalar(operand, value);
  },
};

/** Tri-valued equality of a scalar operand with an argument value. */
export function compareScalar(operand: Scalar, value: unknown): Tri {
  if (value instanceof JsonNumber) {
    return typeof operand === 'number' ? agreed(value, (d) => compareDecimal(d, String(operand)) === 0) : UNKNOWN;
  }
  const kind = scalarKind(value);
  if (kind !== scalarKind(operand)) return UNKNOWN;
  if (kind === 'number' && !Number.isSafeInteger(value)) return UNKNOWN;
  return value === operand ? TRUE : FALSE;
}
