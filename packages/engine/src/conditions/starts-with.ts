// `starts_with`: the argument is a string beginning with one of the listed prefixes.
import type { OperatorFamily } from './family.ts';
import { problem } from './family.ts';
import { FALSE, TRUE, UNKNOWN } from './tri.ts';

export const MAX_PREFIXES = 64;

export const startsWithFamily: OperatorFamily = {
  name: 'starts_with',
  members: ['starts_with'],
  validate(condition, path, problems) {
    const list = condition.starts_with;
    const at = `${path}/starts_with`;
    if (!Array.isArray(list)) {
      problems.push(problem('INVALID_TYPE', at, 'expected a list of strings'));
      return;
    }
    if (list.length === 0) problems.push(problem('EMPTY_LIST', at, 'list at least one prefix'));
    if (list.length > MAX_PREFIXES) problems.push(problem('LIST_TOO_LONG', at, `at most ${MAX_PREFIXES} prefixes`));
    const seen = new Set<string>();
    list.forEach((item, i) => {
      if (typeof item !== 'string') {
        problems.push(problem('INVALID_OPERAND', `${at}/${i}`, 'a prefix is a string'));
      } else if (item === '') {
        problems.push(problem('INVALID_OPERAND', `${at}/${i}`, 'an empty prefix matches every string; remove the condition instead'));
      } else if (seen.has(item)) {
        problems.push(problem('DUPLICATE_VALUE', `${at}/${i}`, `"${item}" is listed twice`));
      } else seen.add(item);
    });
  },
  compile(condition) {
    const prefixes = condition.starts_with as string[];
    return (value) => {
      if (typeof value !== 'string') return UNKNOWN;
      for (let i = 0; i < prefixes.length; i++) {
        if (value.startsWith(prefixes[i] as string)) return TRUE;
      }
      return FALSE;
    };
  },
};
