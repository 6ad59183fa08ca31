// `in`: the argument equals one of a list of scalars. False only when the value has a type the
// list speaks about; another type is indeterminate.
import { JsonNumber } from '../source/json-number.ts';
import { agreed } from './bounds.ts';
import { compareDecimal } from './decimal.ts';
import type { OperatorFamily, Scalar } from './family.ts';
import { checkScalar, problem, scalarKind } from './family.ts';
import { FALSE, TRUE, type Tri, UNKNOWN } from './tri.ts';

export const MAX_IN_ITEMS = 256;

export const inFamily: OperatorFamily = {
  name: 'in',
  members: ['in'],
  validate(condition, path, problems) {
    const list = condition.in;
    const at = `${path}/in`;
    if (!Array.isArray(list)) {
      problems.push(problem('INVALID_TYPE', at, 'expected a list of scalars'));
      return;
    }
    if (list.length === 0) problems.push(problem('EMPTY_LIST', at, 'list at least one value'));
    if (list.length > MAX_IN_ITEMS) problems.push(problem('LIST_TOO_LONG', at, `at most ${MAX_IN_ITEMS} values`));
    const seen = new Set<unknown>();
    list.forEach((item, i) => {
      if (!checkScalar(item, `${at}/${i}`, problems)) return;
      if (seen.has(item)) problems.push(problem('DUPLICATE_VALUE', `${at}/${i}`, `${JSON.stringify(item)} is listed twice`));
      seen.add(item);
    });
  },
  compile(condition) {
    const list = condition.in as Scalar[];
    const members = new Set<unknown>(list);
    const kinds = new Set(list.map(scalarKind));
    const numbers = list.filter((item): item is number => typeof item === 'number');
    return (value) => {
      if (value instanceof JsonNumber) return inNumbers(value, numbers);
      const kind = scalarKind(value);
      if (kind === undefined || !kinds.has(kind)) return UNKNOWN;
      if (kind === 'number' && !Number.isSafeInteger(value)) return UNKNOWN;
      return members.has(value) ? TRUE : FALSE;
    };
  },
};

/** A number kept as written against the list's numbers: TRUE or FALSE only when both its readings agree. */
function inNumbers(value: JsonNumber, numbers: readonly number[]): Tri {
  if (numbers.length === 0) return UNKNOWN;
  return agreed(value, (d) => numbers.some((n) => compareDecimal(d, String(n)) === 0));
}
