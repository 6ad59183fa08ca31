// Signing in through an OpenID Connect provider (docs/console.md, "Signing in"): the authorization code flow with
// PKCE (S256), state and nonce, by oauth4webapi; the console is a public client and holds no secret. The verifier,
// state and nonce wait in this tab's sessionStorage for the round trip only and are removed as the answer is read.

import { readJsonText } from '@tollgate/engine/source';
import * as oauth from 'oauth4webapi';
import { expiresAtOf, jwtExpOf, type SessionStore, type TokenSession } from '../../../lib/token-session.ts';

/** The console's own callback route: the server answers the console's page at any path outside /v1. */
export const CALLBACK_PATH = '/sign-in/callback';

/** An issuer the console may sign in with, as GET /v1/identity/issuers lists it. */
export interface ConsoleIssuer {
  issuer: string;
  client_id: string;
  scopes: string[];
}

/** What waits in sessionStorage between leaving for the provider and coming back. */
export interface PendingSignIn {
  issuer: string;
  clientId: string;
  verifier: string;
  state: string;
  nonce: string;
  redirectUri: string;
}

const PENDING_KEY = 'tollgate.sign-in-pending';

/** A failed sign-in, with the sentence the sign-in page shows. Nothing is kept when one is thrown. */
export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

/** Example: `issuerLabel('https://idp.example.com/')` is 'idp.example.com'. */
export function issuerLabel(issuer: string): string {
  try {
    return new URL(issuer).host;
  } catch {
    return issuer;
  }
}

/**
 * Plain http is refused by oauth4webapi; it is allowed here for an issuer on this machine's loopback only (a
 * provider run beside a local Tollgate, as the tests do), never for one across a network.
 */
export function allowsPlainHttp(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  } catch {
    return false;
  }
}

function httpOptions(issuer: string): { [oauth.allowInsecureRequests]?: boolean } {
  return allowsPlainHttp(issuer) ? { [oauth.allowInsecureRequests]: true } : {};
}

/** Keeps what the callback needs to finish. */
export function savePending(storage: SessionStore, pending: PendingSignIn): void {
  storage.setItem(PENDING_KEY, JSON.stringify(pending));
}

/** Reads and removes at once what the callback needs: a second read finds nothing, so an answer is used once. */
export function takePending(storage: SessionStore): PendingSignIn | null {
  const text = storage.getItem(PENDING_KEY);
  storage.removeItem(PENDING_KEY);
  if (text === null) return null;
  const read = readJsonText(text);
  if (!read.ok || typeof read.value !== 'object' || read.value === null) return null;
  const v = read.value as Record<string, unknown>;
  const fields = ['issuer', 'clientId', 'verifier', 'state', 'nonce', 'redirectUri'] as const;
  if (!fields.every((f) => typeof v[f] === 'string' && v[f] !== '')) return null;
  return Object.fromEntries(fields.map((f) => [f, v[f]])) as unknown as PendingSignIn;
}

async function discover(issuer: string): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  try {
    const response = await oauth.discoveryRequest(url, { algorithm: 'oidc', ...httpOptions(issuer) });
    return await oauth.processDiscoveryResponse(url, response);
  } catch (error) {
    throw new SignInError(`The identity provider ${issuerLabel(issuer)} could not be reached (${messageOf(error)}).`);
  }
}

/** Starts the sign-in: discovery, then off to the provider's authorization endpoint with PKCE, state and nonce. */
export async function startSignIn(entry: ConsoleIssuer, storage: SessionStore = sessionStorage): Promise<void> {
  const as = await discover(entry.issuer);
  if (as.authorization_endpoint === undefined) {
    throw new SignInError(`The identity provider ${issuerLabel(entry.issuer)} names no authorization endpoint.`);
  }
  const pending: PendingSignIn = {
    issuer: entry.issuer,
    clientId: entry.client_id,
    verifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    redirectUri: `${window.location.origin}${CALLBACK_PATH}`,
  };
  const target = new URL(as.authorization_endpoint);
  target.searchParams.set('response_type', 'code');
  target.searchParams.set('client_id', pending.clientId);
  target.searchParams.set('redirect_uri', pending.redirectUri);
  target.searchParams.set('scope', entry.scopes.join(' '));
  target.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(pending.verifier));
  target.searchParams.set('code_challenge_method', 'S256');
  target.searchParams.set('state', pending.state);
  target.searchParams.set('nonce', pending.nonce);
  savePending(storage, pending);
  window.location.assign(target.href);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Finishes the sign-in at the callback `url`: checks the answer against what this tab sent (state, issuer), trades
 * the code at the token endpoint with the verifier, and checks the token response (ID token's iss, aud, nonce).
 * Throws SignInError with what to tell the person; the pending values are gone either way.
 */
export async function completeSignIn(url: URL, storage: SessionStore = sessionStorage): Promise<TokenSession> {
  const pending = takePending(storage);
  const denied = url.searchParams.get('error');
  if (pending === null) {
    if (denied !== null) throw new SignInError(deniedMessage(denied, url.searchParams.get('error_description')));
    throw new SignInError('No sign-in was waiting in this tab (it was already used, or started elsewhere). Sign in again.');
  }
  const as = await discover(pending.issuer);
  const client: oauth.Client = { client_id: pending.clientId };
  let parameters: URLSearchParams;
  try {
    parameters = oauth.validateAuthResponse(as, client, url, pending.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      throw new SignInError(deniedMessage(error.error, error.error_description ?? null));
    }
    throw new SignInError(
      `The identity provider's answer does not match the sign-in started here (${messageOf(error)}). Nothing was kept; sign in again.`,
    );
  }
  let tokens: oauth.TokenEndpointResponse;
  try {
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      parameters,
      pending.redirectUri,
      pending.verifier,
      httpOptions(pending.issuer),
    );
    tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: pending.nonce, requireIdToken: true });
  } catch (error) {
    const said =
      error instanceof oauth.ResponseBodyError
        ? `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`
        : messageOf(error);
    throw new SignInError(`The identity provider did not give a token for the sign-in (${said}). Nothing was kept; sign in again.`);
  }
  if (tokens.token_type !== 'bearer') {
    throw new SignInError(`The identity provider gave a ${tokens.token_type} token; the console sends bearer tokens only.`);
  }
  const expiresAt = expiresAtOf(Date.now(), tokens.expires_in, jwtExpOf(tokens.access_token));
  if (expiresAt === null) throw new SignInError('The identity provider gave a token that does not say when it ends; it was not kept.');
  return { token: tokens.access_token, expiresAt, issuer: pending.issuer };
}

/** The sentence for a provider's error answer. Example: `deniedMessage('access_denied', null)`. */
export function deniedMessage(error: string, description: string | null): string {
  const why = description ? `: ${description}` : '';
  if (error === 'access_denied') return `The identity provider refused the sign-in (access_denied${why}). Nothing was kept.`;
  return `The identity provider answered with an error (${error}${why}). Nothing was kept.`;
}
