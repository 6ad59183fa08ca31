// Passkeys with @simplewebauthn/server (docs/approver-keys.md): the relying party a request is for, the options a
// browser's startRegistration and startAuthentication take, and an enrollment checked and turned into a credential
// row whose public key any verifier reads (SPKI PEM, converted from the authenticator's COSE key).
import { createHash, createPublicKey, type JsonWebKey } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { cose, decodeCredentialPublicKey } from '@simplewebauthn/server/helpers';
import { canonicalJson } from '@tollgate/engine';
import type { CredentialAlgorithm, CredentialRow } from '../state/members/credential-model.ts';
import type { MemberRow } from '../state/members/model.ts';

/** How long a browser may take over a passkey prompt, and how long an enrollment's challenge stands. */
export const PASSKEY_TIMEOUT_MS = 5 * 60_000;

/** The relying party of a request: its id, and the origin the browser says it is on (when one does). */
export interface RelyingParty {
  id: string;
  origin: string | undefined;
}

/**
 * The relying party a request is for: the configured id (serve's --rp-id), else the host name the console was opened
 * at (the Origin header's, else Host's). An origin whose host is not the id or below it is not this party's.
 *
 * @example
 * relyingPartyOf(undefined, 'http://localhost:4317', 'localhost:4317') // { id: 'localhost', origin: 'http://localhost:4317' }
 */
export function relyingPartyOf(configured: string | undefined, origin: string | undefined, host: string | undefined): RelyingParty {
  const originHost = hostOf(origin);
  const id = configured ?? originHost ?? hostOf(host === undefined ? undefined : `http://${host}`) ?? 'localhost';
  const within = originHost !== undefined && (originHost === id || originHost.endsWith(`.${id}`));
  return { id, origin: within ? origin : undefined };
}

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).hostname || undefined;
  } catch {
    return undefined;
  }
}

/** The challenge of an enrollment begun at `issuedAt`: stateless, bound to the member and the time. */
export function enrollmentChallenge(memberId: string, issuedAt: string): string {
  const text = canonicalJson({ purpose: 'tollgate.passkey.enroll', member: memberId, issued_at: issuedAt });
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

/** The options for the browser's startRegistration: user verification required, the member's passkeys excluded. */
export function registrationOptions(
  member: MemberRow,
  held: readonly CredentialRow[],
  rp: RelyingParty,
  issuedAt: string,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: 'Tollgate',
    rpID: rp.id,
    userName: member.name,
    userID: new TextEncoder().encode(member.id),
    challenge: Buffer.from(enrollmentChallenge(member.id, issuedAt), 'base64url'),
    timeout: PASSKEY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: held.filter((c) => c.kind === 'passkey' && c.revoked_at === null).map((c) => ({ id: c.id })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: [cose.COSEALG.EdDSA, cose.COSEALG.ES256, cose.COSEALG.RS256],
  });
}

/** The options for the browser's startAuthentication over `challenge`: the member's active passkeys on this party. */
export function assertionOptions(
  held: readonly CredentialRow[],
  rp: RelyingParty,
  challenge: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> | null {
  const passkeys = held.filter((c) => c.kind === 'passkey' && c.revoked_at === null && c.rp_id === rp.id);
  if (passkeys.length === 0) return null;
  return generateAuthenticationOptions({
    rpID: rp.id,
    challenge: Buffer.from(challenge, 'base64url'),
    allowCredentials: passkeys.map((c) => ({ id: c.id })),
    userVerification: 'required',
    timeout: PASSKEY_TIMEOUT_MS,
  });
}

/**
 * An enrollment checked: the registration answers the challenge of `issuedAt` (not older than PASSKEY_TIMEOUT_MS), on
 * this party's origin, with the user verified; the credential row it makes, or why not.
 */
export async function enrolledPasskey(
  member: MemberRow,
  response: RegistrationResponseJSON,
  issuedAt: string,
  rp: RelyingParty,
  label: string | null,
  now: Date,
): Promise<{ ok: true; row: CredentialRow } | { ok: false; message: string }> {
  const age = now.getTime() - Date.parse(issuedAt);
  if (!(age >= -60_000 && age <= PASSKEY_TIMEOUT_MS)) return { ok: false, message: 'the enrollment began too long ago; start it again' };
  if (rp.origin === undefined) return { ok: false, message: `the request's Origin is not on the relying party ${rp.id}` };
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: enrollmentChallenge(member.id, issuedAt),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
  if (!verified.verified) return { ok: false, message: 'the registration does not verify' };
  const { credential } = verified.registrationInfo;
  const key = spkiOf(credential.publicKey);
  if (!key) return { ok: false, message: "the passkey's public key is of an algorithm Tollgate does not verify" };
  return {
    ok: true,
    row: {
      id: credential.id,
      member_id: member.id,
      kind: 'passkey',
      label,
      algorithm: key.algorithm,
      public_key: key.pem,
      cose_key: Buffer.from(credential.publicKey).toString('base64url'),
      rp_id: rp.id,
      counter: credential.counter,
      created_at: now.toISOString(),
      revoked_at: null,
    },
  };
}

/** Whether the library finds the assertion sound on this party's origin (the checks proof.ts makes, and the origin). */
export async function assertionVerifies(
  response: AuthenticationResponseJSON,
  credential: CredentialRow,
  rp: RelyingParty,
  challenge: string,
): Promise<boolean> {
  if (rp.origin === undefined || credential.cose_key === null || credential.rp_id === null) return false;
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: credential.rp_id,
      credential: { id: credential.id, publicKey: Buffer.from(credential.cose_key, 'base64url'), counter: 0 },
      requireUserVerification: true,
    });
    return verified.verified;
  } catch {
    return false;
  }
}

/** A COSE public key as SPKI PEM with its algorithm's name; undefined for a kind proof.ts cannot verify. */
function spkiOf(coseKey: Uint8Array): { pem: string; algorithm: CredentialAlgorithm } | undefined {
  const decoded = decodeCredentialPublicKey(new Uint8Array(coseKey)) as unknown as Map<number, unknown>;
  const kty = decoded.get(cose.COSEKEYS.kty);
  const alg = decoded.get(cose.COSEKEYS.alg);
  const part = (k: number) => {
    const v = decoded.get(k);
    return v instanceof Uint8Array ? Buffer.from(v).toString('base64url') : undefined;
  };
  let jwk: JsonWebKey | undefined;
  let algorithm: CredentialAlgorithm | undefined;
  if (kty === cose.COSEKTY.EC2 && alg === cose.COSEALG.ES256) {
    jwk = { kty: 'EC', crv: 'P-256', x: part(cose.COSEKEYS.x), y: part(cose.COSEKEYS.y) };
    algorithm = 'ES256';
  } else if (kty === cose.COSEKTY.OKP && alg === cose.COSEALG.EdDSA) {
    jwk = { kty: 'OKP', crv: 'Ed25519', x: part(cose.COSEKEYS.x) };
    algorithm = 'EdDSA';
  } else if (kty === cose.COSEKTY.RSA && alg === cose.COSEALG.RS256) {
    jwk = { kty: 'RSA', n: part(cose.COSEKEYS.n), e: part(cose.COSEKEYS.e) };
    algorithm = 'RS256';
  }
  if (!jwk || !algorithm) return undefined;
  try {
    return { pem: createPublicKey({ key: jwk, format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString(), algorithm };
  } catch {
    return undefined;
  }
}
