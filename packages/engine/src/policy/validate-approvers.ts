// approvers on a require_approval rule: roles able to approve, user IDs that are members able to approve.
import { unknownMember } from '../conditions/condition.ts';
import { problem } from '../conditions/family.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { APPROVER_ROLES, MEMBER_ROLES, type Member } from './types.ts';

export const MAX_APPROVER_USERS = 32;
/** The largest quorum: as many approvals as the most eligible approvers a call may have (approvers.ts). */
export const MAX_QUORUM = 32;
export const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const APPROVER_MEMBERS = ['roles', 'users', 'quorum'];

export function validateApprovers(approvers: unknown, path: string, problems: Diagnostic[], members?: readonly Member[]): void {
  if (approvers === null || typeof approvers !== 'object' || Array.isArray(approvers)) {
    problems.push(problem('INVALID_TYPE', path, 'approvers is an object such as {"roles": ["owner", "admin"]}'));
    return;
  }
  const a = approvers as Record<string, unknown>;
  for (const key of Object.keys(a)) if (!APPROVER_MEMBERS.includes(key)) problems.push(unknownMember(path, key, APPROVER_MEMBERS));
  if (a.roles === undefined && a.users === undefined) {
    problems.push(problem('APPROVERS_REQUIRED', path, 'list "roles" (owner, admin, approver) or "users" (member IDs) who may approve'));
  }
  if (a.quorum !== undefined) {
    const q = a.quorum;
    if (!(typeof q === 'number' && Number.isInteger(q) && q >= 1 && q <= MAX_QUORUM)) {
      problems.push(problem('INVALID_QUORUM', `${path}/quorum`, `quorum is a whole number of approvals from 1 to ${MAX_QUORUM}`));
    } else if (a.roles === undefined && Array.isArray(a.users) && a.users.length < q) {
      problems.push(
        problem('INVALID_QUORUM', `${path}/quorum`, `a quorum of ${q} needs at least ${q} users; ${a.users.length} are listed`),
      );
    }
  }
  if (a.roles !== undefined) {
    listOf(a.roles, `${path}/roles`, problems, APPROVER_ROLES.length, (role, at) => {
      if (typeof role !== 'string') problems.push(problem('INVALID_TYPE', at, 'a role is a string'));
      else if ((APPROVER_ROLES as readonly string[]).includes(role)) return role;
      else if ((MEMBER_ROLES as readonly string[]).includes(role)) {
        problems.push(problem('APPROVER_ROLE_NOT_CAPABLE', at, `the ${role} role cannot approve; use owner, admin or approver`));
      } else problems.push(problem('INVALID_VALUE', at, `unknown role "${role}"; use owner, admin or approver`));
      return undefined;
    });
  }
  if (a.users !== undefined) {
    const byId = members ? new Map(members.map((m) => [m.id, m])) : undefined;
    listOf(a.users, `${path}/users`, problems, MAX_APPROVER_USERS, (user, at) => {
      if (typeof user !== 'string' || !USER_ID.test(user)) {
        problems.push(problem('INVALID_USER_ID', at, 'a user is a member ID: a lowercase UUID'));
        return undefined;
      }
      if (byId) {
        const member = byId.get(user);
        if (!member) problems.push(problem('UNKNOWN_APPROVER', at, `${user} is not a member`));
        else if (!(APPROVER_ROLES as readonly string[]).includes(member.role)) {
          problems.push(problem('APPROVER_ROLE_NOT_CAPABLE', at, `${user} is a ${member.role}, who cannot approve`));
        }
      }
      return user;
    });
  }
}

/** Checks a list's type, size and duplicates, calling `item` for each entry (which returns a key to de-duplicate on). */
export function listOf(
  value: unknown,
  path: string,
  problems: Diagnostic[],
  max: number,
  item: (entry: unknown, at: string) => string | undefined,
): void {
  if (!Array.isArray(value)) {
    problems.push(problem('INVALID_TYPE', path, 'expected a list'));
    return;
  }
  if (value.length === 0) problems.push(problem('EMPTY_LIST', path, 'list at least one item'));
  if (value.length > max) problems.push(problem('LIST_TOO_LONG', path, `at most ${max} items`));
  const seen = new Set<string>();
  value.forEach((entry, i) => {
    const at = `${path}/${i}`;
    const key = item(entry, at);
    if (key === undefined) return;
    if (seen.has(key)) problems.push(problem('DUPLICATE_VALUE', at, `"${key}" is listed twice`));
    seen.add(key);
  });
}

const MEMBER_MEMBERS = ['id', 'role', 'signing', 'model'];

/** Validates a members list `[{id, role, signing, model?}]` (the CLI's --members file). */
export function validateMembers(members: unknown): Diagnostic[] {
  const problems: Diagnostic[] = [];
  if (!Array.isArray(members)) {
    problems.push(problem('INVALID_TYPE', '', 'members is a list of {"id", "role", "signing"}'));
    return problems;
  }
  const seen = new Set<string>();
  members.forEach((m, i) => {
    const at = `/${i}`;
    if (m === null || typeof m !== 'object' || Array.isArray(m)) {
      problems.push(problem('INVALID_TYPE', at, 'a member is {"id", "role", "signing"}'));
      return;
    }
    for (const key of Object.keys(m)) if (!MEMBER_MEMBERS.includes(key)) problems.push(unknownMember(at, key, MEMBER_MEMBERS));
    if (typeof m.id !== 'string' || !USER_ID.test(m.id))
      problems.push(problem('INVALID_USER_ID', `${at}/id`, 'a member ID is a lowercase UUID'));
    else if (seen.has(m.id)) problems.push(problem('DUPLICATE_VALUE', `${at}/id`, `${m.id} is listed twice`));
    else seen.add(m.id);
    if (!(MEMBER_ROLES as readonly unknown[]).includes(m.role)) {
      problems.push(problem('INVALID_VALUE', `${at}/role`, `a role is one of ${MEMBER_ROLES.join(', ')}`));
    }
    if (typeof m.signing !== 'boolean') problems.push(problem('INVALID_TYPE', `${at}/signing`, 'signing is true or false'));
    if (m.model !== undefined && typeof m.model !== 'boolean') {
      problems.push(problem('INVALID_TYPE', `${at}/model`, 'model is true or false (true: the member has only model keys)'));
    }
  });
  return problems;
}
