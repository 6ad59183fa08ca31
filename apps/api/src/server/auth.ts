// Bearer keys: every route but health needs one. A missing or wrong key is 401; a lacking role or grant
// is 403, with the code saying which.
import { createMiddleware } from 'hono/factory';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import type { Grant, Principal, Role } from './state/members/model.ts';

/** Every 401 says how to authenticate (RFC 6750): a bearer key. */
export const CHALLENGE = { 'WWW-Authenticate': 'Bearer' } as const;

export type Env = { Variables: { principal: Principal; ctx: AppContext } };

/** Reads the bearer key and sets the principal. */
export function bearerAuth(ctx: AppContext) {
  return createMiddleware<Env>(async function authenticate(c, next) {
    c.set('ctx', ctx);
    const header = c.req.header('authorization');
    if (!header) throw new ApiError('MISSING_KEY', 'send Authorization: Bearer <key>', undefined, CHALLENGE);
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    const principal = m ? await ctx.state.principalOf(m[1] as string) : undefined;
    if (!principal) throw new ApiError('INVALID_KEY', 'the key is not known', undefined, CHALLENGE);
    c.set('principal', principal);
    await next();
  });
}

/** The member behind the request, when one of `roles` (or any member with no roles given). */
export function requireMember(principal: Principal, ...roles: Role[]) {
  if (principal.kind !== 'member') throw new ApiError('MEMBER_REQUIRED', "an agent's key cannot do this; use a member's key");
  if (roles.length > 0 && !roles.includes(principal.member.role)) {
    throw new ApiError('ROLE_REQUIRED', `this needs the role ${roles.join(' or ')}; you are ${principal.member.role}`);
  }
  return principal.member;
}

export function requireGrant(principal: Principal, grant: Grant): void {
  if (!principal.grants.includes(grant)) throw new ApiError('GRANT_REQUIRED', `this needs the ${grant} grant`);
}
