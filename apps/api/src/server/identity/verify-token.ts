// A bearer token's verification (docs/security.md, "Signing in through an identity provider"): a JWT signed with
// an asymmetric algorithm by a configured issuer's key, for this Tollgate's audience, in its time. The issuer is
// read from the unverified token only to pick the key set; an unknown issuer is refused before any fetch. Each
// refusal is an ApiError with its code; discovery and key set fetches are bounded and fail closed (503).
import { readJsonText } from '@tollgate/engine/source';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose';
import { ApiError } from '../errors.ts';
import type { IdentityConfig, IssuerConfig } from './identity-config.ts';

/** The signature algorithms accepted: asymmetric only, so no shared secret (HS*) and never `none`. */
export const TOKEN_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** Clock skew allowed between this node and the issuer on exp and nbf. */
export const CLOCK_TOLERANCE_SECONDS = 30;
/** How long a discovery document or a key set may take to arrive. */
export const ISSUER_FETCH_TIMEOUT_MS = 5_000;
/** A key set is fetched again at most this often when a token names a key it does not hold (jose's cooldown). */
const JWKS_COOLDOWN_MS = 30_000;
/** A key set is kept this long before it is fetched again. */
const JWKS_MAX_AGE_MS = 10 * 60_000;
/** The most a token may be: far over any issuer's, far under what would cost to read. */
const MAX_TOKEN_LENGTH = 16 * 1024;

export interface TokenVerifierOptions {
  /** ISSUER_FETCH_TIMEOUT_MS unless given. */
  fetchTimeoutMs?: number;
}

/** A token that verified: its issuer's configuration and its claims. */
export interface VerifiedToken {
  issuer: IssuerConfig;
  claims: JWTPayload;
}

const invalid = (message: string) => new ApiError('TOKEN_INVALID', message);
const unavailable = (issuer: string, why: string) =>
  new ApiError('ISSUER_UNAVAILABLE', `the issuer ${issuer} did not answer: ${why}; nothing was allowed, retry`);

/** Thrown by the key getter so jwtVerify's caller tells an issuer that did not answer from a bad token. */
class KeySetUnavailable extends Error {}

/**
 * Whether each of the token's three segments is base64url written the one way it can be: no padding, no
 * spare bits set. Without it one token has several spellings (its last character's spare bits), each of
 * which a lenient decoder reads as the same signature.
 */
function canonicalSegments(token: string): boolean {
  const parts = token.split('.');
  if (parts.length !== 3) return false;
  return parts.every((part) => /^[A-Za-z0-9_-]*$/.test(part) && Buffer.from(part, 'base64url').toString('base64url') === part);
}

/**
 * A verifier of bearer tokens for `config`: each issuer's discovery is fetched on the first token it signs and
 * kept once it answered; its key set is cached by jose (fetched again on an unknown key id, at most once per
 * cooldown).
 *
 * @example
 * const verify = createTokenVerifier(config);
 * const { issuer, claims } = await verify(token); // or throws ApiError('TOKEN_EXPIRED', ...)
 */
export function createTokenVerifier(config: IdentityConfig, options: TokenVerifierOptions = {}) {
  const timeoutMs = options.fetchTimeoutMs ?? ISSUER_FETCH_TIMEOUT_MS;
  const byIssuer = new Map(config.issuers.map((i) => [i.issuer, i]));
  const keySets = new Map<string, Promise<JWTVerifyGetKey>>();

  /** The issuer's key getter: discovery kept once it answered, so a failed one is tried again by the next token. */
  function keySetOf(issuer: IssuerConfig): Promise<JWTVerifyGetKey> {
    let keySet = keySets.get(issuer.issuer);
    if (!keySet) {
      keySet = discoverKeySet(issuer.issuer, timeoutMs);
      keySets.set(issuer.issuer, keySet);
      keySet.catch(() => keySets.delete(issuer.issuer));
    }
    return keySet;
  }

  return async function verifyToken(token: string): Promise<VerifiedToken> {
    if (token.length > MAX_TOKEN_LENGTH || !canonicalSegments(token)) throw invalid('the token is not a JWS in compact form');
    let alg: unknown;
    let iss: unknown;
    try {
      alg = decodeProtectedHeader(token).alg;
      iss = decodeJwt(token).iss;
    } catch {
      throw invalid('the token is not a JWT: its header or payload does not read');
    }
    if (typeof alg !== 'string' || !TOKEN_ALGORITHMS.includes(alg)) {
      throw invalid(`the token is signed with ${String(alg)}; accepted: ${TOKEN_ALGORITHMS.join(', ')}`);
    }
    const issuer = typeof iss === 'string' ? byIssuer.get(iss) : undefined;
    if (!issuer) throw new ApiError('TOKEN_ISSUER', `the token's issuer ${JSON.stringify(iss ?? null)} is not configured`);
    const keySet = await keySetOf(issuer);
    try {
      const { payload } = await jwtVerify(token, keySet, {
        issuer: issuer.issuer,
        audience: issuer.audiences,
        algorithms: TOKEN_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp'],
      });
      return { issuer, claims: payload };
    } catch (err) {
      throw refusalOf(err, issuer);
    }
  };
}

/** The ApiError a failed jwtVerify is answered with. */
function refusalOf(err: unknown, issuer: IssuerConfig): ApiError {
  if (err instanceof KeySetUnavailable) return unavailable(issuer.issuer, err.message);
  if (err instanceof errors.JWTExpired) return new ApiError('TOKEN_EXPIRED', 'the token has expired (exp)');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'nbf') return new ApiError('TOKEN_EXPIRED', 'the token is not valid yet (nbf)');
    if (err.claim === 'aud')
      return new ApiError('TOKEN_AUDIENCE', `the token's audience is not this Tollgate (${issuer.audiences.join(' or ')})`);
    if (err.claim === 'iss') return new ApiError('TOKEN_ISSUER', "the token's issuer is not configured");
    return invalid(`the token's ${err.claim} claim is not valid: ${err.reason}`);
  }
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) {
    return invalid("the token's signing key is not one of its issuer's keys");
  }
  if (err instanceof errors.JOSEError) return invalid('the token does not verify');
  throw err;
}

/** Fetches `url` within the bound, as JSON read by the exact reader. */
async function fetchJson(url: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'error', headers: { accept: 'application/json' } });
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const read = readJsonText(await response.text(), { maxLength: 512 * 1024, maxDepth: 16 });
  if (!read.ok || read.diagnostics.length > 0) throw new Error(`${url} did not answer JSON`);
  return read.value;
}

/**
 * The issuer's key getter from its discovery document (OpenID Connect Discovery 1.0, 4): the document must name
 * the same issuer, and its jwks_uri is read through jose's remote key set with the same bound.
 */
async function discoverKeySet(issuer: string, timeoutMs: number): Promise<JWTVerifyGetKey> {
  let jwksUri: URL;
  try {
    const document = await fetchJson(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`, timeoutMs);
    const named = document !== null && typeof document === 'object' ? (document as Record<string, unknown>) : {};
    if (named.issuer !== issuer) throw new Error('its discovery document names another issuer');
    if (typeof named.jwks_uri !== 'string') throw new Error('its discovery document has no jwks_uri');
    jwksUri = new URL(named.jwks_uri);
  } catch (err) {
    throw unavailable(
      issuer,
      err instanceof Error && err.name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : String((err as Error).message ?? err),
    );
  }
  const remote = createRemoteJWKSet(jwksUri, {
    timeoutDuration: timeoutMs,
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: JWKS_MAX_AGE_MS,
  });
  return async function issuerKey(header, token) {
    try {
      return await remote(header, token);
    } catch (err) {
      // A key the set does not hold is the token's fault; anything else (no answer, a bad set) is the issuer's.
      if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) throw err;
      throw new KeySetUnavailable(
        err instanceof errors.JWKSTimeout ? `its key set did not answer in ${timeoutMs} ms` : 'its key set did not answer',
      );
    }
  };
}
