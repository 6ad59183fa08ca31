// Bearer keys: every route but health needs one. A missing or wrong key is 401; a lacking role or grant
// is 403, with the code saying which.
import { createMiddleware } from 'hono/factory';
import type { AppContext } from './context.ts';
import { ApiError } from './errors.ts';
import { type Identity, isTollgateKey } from './identity/identity.ts';
import type { Grant, KeyAuthentication, Principal, Role } from './state/members/model.ts';

/** Every 401 says how to authenticate (RFC 6750): a bearer key. */
export const CHALLENGE = { 'WWW-Authenticate': 'Bearer' } as const;

export type Env = { Variables: { principal: Principal; ctx: AppContext } };

/** Reads the bearer key and sets the principal. */
export function bearerAuth(ctx: AppContext, identity?: Identity) {
  return createMiddleware<Env>(async function authenticate(c, next) {
    c.set('ctx', ctx);
    const header = c.req.header('authorization');
    if (!header) throw new ApiError('MISSING_KEY', 'send Authorization: Bearer <key>', undefined, CHALLENGE);
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    // A bearer that is not a key is an identity provider's token when issuers are configured (identity/).
    if (m && identity && !isTollgateKey(m[1] as string)) {
      c.set('principal', (await identity.authenticate(m[1] as string, ctx.state)).principal);
      return next();
    }
    c.set('principal', await principalOfKey(ctx, m?.[1]));
    await next();
  });
}

/** A key checked now, its use noted when it acts: the principal, why it is refused, or undefined for no key. */
export async function keyAuthentication(ctx: AppContext, key: string): Promise<KeyAuthentication | undefined> {
  const now = new Date();
  const auth = await ctx.state.authenticateKey(key, now);
  if (auth && 'principal' in auth) ctx.state.identity.noteKeyUsed(auth.keyId, now);
  return auth;
}

/**
 * The principal a key acts as; an unknown key is INVALID_KEY, a revoked or expired one or one whose member was
 * removed is refused with the code that says which (docs/security.md, "Keys").
 */
async function principalOfKey(ctx: AppContext, key: string | undefined): Promise<Principal> {
  const auth = key === undefined ? undefined : await keyAuthentication(ctx, key);
  if (!auth) throw new ApiError('INVALID_KEY', 'the key is not known', undefined, CHALLENGE);
  if ('refused' in auth) throw new ApiError(auth.refused, auth.message, undefined, CHALLENGE);
  return auth.principal;
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
