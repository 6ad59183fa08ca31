// Tokens from configured OpenID Connect issuers as bearers beside Tollgate's keys (docs/security.md, "Signing in
// through an identity provider"): one object the bearer middleware (auth.ts) and /mcp (mcp/mcp-route.ts) share.
import { createHash } from 'node:crypto';
import type { Principal } from '../state/members/model.ts';
import type { StateStore } from '../state/state-store.ts';
import type { IdentityConfig } from './identity-config.ts';
import { principalOfToken } from './token-principal.ts';
import { createTokenVerifier, type TokenVerifierOptions } from './verify-token.ts';

/** A Tollgate key's prefix (state/members/credentials.ts): such a bearer is a key, never a token. */
const KEY_PREFIX = 'tg_';

/** Whether a bearer is one of Tollgate's keys rather than a token. */
export function isTollgateKey(bearer: string): boolean {
  return bearer.startsWith(KEY_PREFIX);
}

/** A token that authenticated: who it acts as, and a stable name of that identity (not of the token). */
export interface TokenAuthentication {
  principal: Principal;
  /** The issuer and the subject, digested: the same across a token's refreshes, so an MCP session survives them. */
  owner: string;
}

export interface Identity {
  readonly config: IdentityConfig;
  /** The principal a bearer token acts as, or an ApiError with its code (TOKEN_*, MEMBER_REMOVED, ISSUER_UNAVAILABLE). */
  authenticate(token: string, state: StateStore): Promise<TokenAuthentication>;
}

/**
 * The identity of a server with `config`.
 *
 * @example
 * const identity = createIdentity(config);
 * const { principal } = await identity.authenticate(token, ctx.state);
 */
export function createIdentity(config: IdentityConfig, options: TokenVerifierOptions = {}): Identity {
  const verify = createTokenVerifier(config, options);
  return {
    config,
    async authenticate(token, state) {
      const { issuer, claims } = await verify(token);
      const principal = await principalOfToken(state, issuer, claims);
      const who = principal.kind === 'agent' ? `agent:${principal.agent}` : `member:${principal.member.id}`;
      const owner = createHash('sha256').update(`token\n${issuer.issuer}\n${who}`).digest('hex');
      return { principal, owner };
    },
  };
}
