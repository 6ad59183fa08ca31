// Who a verified token acts as (docs/security.md, "Signing in through an identity provider"): the member its
// member claim names, with the role its groups map to when the issuer maps roles, or else the agent its agent
// claim names. A token that names neither, or a member this Tollgate does not know and may not create, is refused.
import { documentKindOf } from '@tollgate/engine';
import { idProblem } from '@tollgate/store';
import type { JWTPayload } from 'jose';
import { ApiError } from '../errors.ts';
import type { Actor } from '../state/members/lifecycle.ts';
import { type MemberRow, type Principal, ROLE_GRANTS, type Role } from '../state/members/model.ts';
import type { StateStore } from '../state/state-store.ts';
import type { IssuerConfig } from './identity-config.ts';

/** Which mapped role wins when a token's groups map to several: the one that may do most. */
export const ROLE_ORDER: readonly Role[] = ['owner', 'admin', 'developer', 'approver', 'viewer'];

/** A member's name is a person's handle or address: never a control character, never empty or huge. */
const MEMBER_NAME = /^[^\p{Cc}]{1,200}$/u;

/**
 * The role a token's groups map to under `roles`: the highest in ROLE_ORDER, or undefined when none maps.
 *
 * @example
 * mappedRole({ groups: ['tg-approvers', 'tg-owners'] }, { claim: 'groups', map: { 'tg-owners': 'owner', 'tg-approvers': 'approver' } }) // 'owner'
 */
export function mappedRole(claims: JWTPayload, roles: NonNullable<IssuerConfig['roles']>): Role | undefined {
  const value = claims[roles.claim];
  const groups = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
  const mapped = new Set(groups.flatMap((g) => (Object.hasOwn(roles.map, g) ? [roles.map[g] as Role] : [])));
  return ROLE_ORDER.find((role) => mapped.has(role));
}

const refused = (message: string) => new ApiError('TOKEN_IDENTITY', message);

/**
 * The principal a verified token acts as. A member named for the first time is added with the mapped role; a
 * known member acts with their stored role, unless the issuer maps roles: then the mapped role is stored and
 * acted with.
 *
 * @example
 * await principalOfToken(state, issuer, { email: 'ana@example.com', groups: ['tg-owners'] }) // { kind: 'member', ... }
 */
export async function principalOfToken(state: StateStore, issuer: IssuerConfig, claims: JWTPayload): Promise<Principal> {
  const name = claims[issuer.memberClaim];
  if (name === undefined && issuer.agentClaim !== undefined) {
    const agent = claims[issuer.agentClaim];
    if (typeof agent !== 'string' || agent === '') {
      throw refused(`the token names neither a member (${issuer.memberClaim}) nor an agent (${issuer.agentClaim})`);
    }
    // As the gate's routes read an agent's name (call-request.ts, agentNameProblem): only ever an agent document's.
    const id = `agents/${agent}.agent.yaml`;
    if (idProblem(id) !== undefined || documentKindOf(id) !== 'agent')
      throw refused(`the token's ${issuer.agentClaim} is not an agent's name`);
    return { kind: 'agent', agent, grants: [] };
  }
  if (typeof name !== 'string' || !MEMBER_NAME.test(name)) throw refused(`the token's ${issuer.memberClaim} claim names no member`);
  const role = issuer.roles ? mappedRole(claims, issuer.roles) : undefined;
  if (issuer.roles && role === undefined) throw refused(`none of the token's ${issuer.roles.claim} maps to a role of this Tollgate`);
  const actor = { kind: 'issuer', issuer: issuer.issuer } as const;
  const member = (await memberNamed(state, name)) ?? (role ? await createNamed(state, name, role, actor) : undefined);
  if (!member) throw refused(`no member is named ${name}`);
  if (member.removed_at !== null) throw new ApiError('MEMBER_REMOVED', `the member ${name} was removed`);
  if (role === undefined) return { kind: 'member', member, grants: [...ROLE_GRANTS[member.role]] };
  // The issuer's word on the role is the member's from now on, recorded as the issuer's change. Should the store
  // refuse it (the last owner stays), the token still acts with the mapped role only (docs/security.md).
  const changed = member.role === role ? { ok: member } : await state.identity.setMemberRole(member.id, role, actor);
  const row = 'ok' in changed ? changed.ok : member;
  return { kind: 'member', member: { ...row, role }, grants: [...ROLE_GRANTS[role]] };
}

/** The member named `name`: findMember also matches ids, and a token names a member by name only. */
async function memberNamed(state: StateStore, name: string): Promise<MemberRow | undefined> {
  const row = await state.findMember(name);
  return row?.name === name ? row : undefined;
}

/** Adds the member on their first token; of two first requests at once one adds them, and the other reads them. */
async function createNamed(state: StateStore, name: string, role: Role, actor: Actor): Promise<MemberRow> {
  const added = await state.identity.addMember(name, role, actor);
  if ('ok' in added) return added.ok;
  const row = await memberNamed(state, name);
  if (row) return row;
  throw new ApiError(added.refusal.code, added.refusal.message);
}
