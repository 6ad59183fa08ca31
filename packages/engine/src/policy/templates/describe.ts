// Wording shared by templates' notes: lists of actions and roles, and approval lifetimes.
import type { ApproverRole } from '../types.ts';

/** `a`, `a and b`, `a, b and c`. */
export function describeList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Who approves: "an owner, admin or approver". */
export function describeRoles(roles: readonly ApproverRole[]): string {
  const list = roles.length <= 1 ? roles.join('') : `${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]}`;
  return `${/^[aeiou]/.test(list) ? 'an' : 'a'} ${list}`;
}

/** An approval lifetime in the largest whole unit: "4 hours", "90 seconds". */
export function describeSeconds(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds % size === 0) return plural(seconds / size, unit);
  }
  return plural(seconds, 'second');
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
