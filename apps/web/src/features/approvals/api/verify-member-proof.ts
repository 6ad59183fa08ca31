// Checks in the browser, with Web Crypto, a decision signed with a member-held key (docs/approver-keys.md): a
// passkey's assertion (its challenge is the digest of signed_content, the user was verified, and the signature
// over authenticator data and the client data's digest verifies with the passkey's public key), or a device
// key's Ed25519 signature over signed_content.
import type { Approval } from './types.ts';
import { contentMismatch, derOfPem, fingerprintOf, type ReceiptCheck } from './verify-receipt.ts';

/** How a member-held key signed a decision, as the request keeps it (docs/approver-keys.md, "The API"). */
export type StoredProof =
  | ({ kind: 'passkey' } & PasskeyParts & { credential_id: string })
  | { kind: 'device'; credential_id: string; signature: string };

/** What a passkey proof keeps, base64url: the assertion's parts an offline verifier needs. */
export interface PasskeyParts {
  authenticator_data: string;
  client_data_json: string;
  signature: string;
}

/** The public half of the credential named by a proof: SPKI PEM and its algorithm (ES256, EdDSA, RS256, Ed25519). */
export interface ProofKey {
  public_key: string;
  algorithm: string;
}

/** Example: `bytesOfBase64url('AQI')` is `Uint8Array [1, 2]`. Padded base64 and base64url both read. */
export function bytesOfBase64url(text: string): Uint8Array<ArrayBuffer> {
  const plain = text.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  const binary = atob(plain + '='.repeat((4 - (plain.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

const sha256 = async (bytes: Uint8Array<ArrayBuffer>) => new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));

/** The challenge a passkey signs for `content`: the base64url SHA-256 of its UTF-8 bytes. */
export async function challengeOf(content: string): Promise<string> {
  return base64url(await sha256(new TextEncoder().encode(content)));
}

/** An ECDSA signature's DER (SEQUENCE of two INTEGERs) as the r || s Web Crypto verifies, each `size` bytes. */
export function rawOfDerSignature(der: Uint8Array, size = 32): Uint8Array<ArrayBuffer> | null {
  if (der[0] !== 0x30) return null;
  let at = der[1] === 0x81 ? 3 : 2;
  const out = new Uint8Array(size * 2);
  for (let part = 0; part < 2; part += 1) {
    const length = der[at + 1];
    if (der[at] !== 0x02 || length === undefined) return null;
    let value = der.subarray(at + 2, at + 2 + length);
    while (value.length > size && value[0] === 0) value = value.subarray(1);
    if (value.length > size) return null;
    out.set(value, size * (part + 1) - value.length);
    at += 2 + length;
  }
  return out;
}

type Verify = (key: ProofKey, signature: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>) => Promise<boolean>;

const verifyWith =
  (importAs: EcKeyImportParams | RsaHashedImportParams | Algorithm, verifyAs: EcdsaParams | Algorithm): Verify =>
  async (key, signature, data) => {
    const imported = await crypto.subtle.importKey('spki', derOfPem(key.public_key), importAs, false, ['verify']);
    return crypto.subtle.verify(verifyAs, imported, signature, data);
  };

const ED25519 = verifyWith({ name: 'Ed25519' }, { name: 'Ed25519' });
const VERIFIERS: Record<string, Verify> = {
  ES256: async (key, signature, data) => {
    const raw = rawOfDerSignature(signature);
    if (raw === null) return false;
    return verifyWith({ name: 'ECDSA', namedCurve: 'P-256' }, { name: 'ECDSA', hash: 'SHA-256' })(key, raw, data);
  },
  RS256: verifyWith({ name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, { name: 'RSASSA-PKCS1-v1_5' }),
  EdDSA: ED25519,
  Ed25519: ED25519,
};

// Authenticator data: the rp id's hash (32 bytes), then the flags; UV is bit 2 (WebAuthn, "Authenticator Data").
const FLAGS_AT = 32;
const FLAG_UV = 0x04;

/** Why a passkey proof over `content` does not verify with `key`, or null when it does. */
export async function passkeyProblem(content: string, parts: PasskeyParts, key: ProofKey): Promise<string | null> {
  const verify = VERIFIERS[key.algorithm];
  if (verify === undefined) return `the passkey's algorithm ${key.algorithm} is not one this console checks`;
  let clientData: { type?: unknown; challenge?: unknown };
  let clientBytes: Uint8Array<ArrayBuffer>;
  let authenticatorData: Uint8Array<ArrayBuffer>;
  let signature: Uint8Array<ArrayBuffer>;
  try {
    clientBytes = bytesOfBase64url(parts.client_data_json);
    clientData = JSON.parse(new TextDecoder().decode(clientBytes)) as typeof clientData;
    authenticatorData = bytesOfBase64url(parts.authenticator_data);
    signature = bytesOfBase64url(parts.signature);
  } catch {
    return 'the passkey proof does not read';
  }
  if (clientData.type !== 'webauthn.get') return 'the passkey proof is not an assertion';
  if (clientData.challenge !== (await challengeOf(content))) return "the passkey signed another content than this decision's";
  if (((authenticatorData[FLAGS_AT] ?? 0) & FLAG_UV) === 0) return 'the passkey did not verify the user';
  const data = new Uint8Array(authenticatorData.length + 32);
  data.set(authenticatorData);
  data.set(await sha256(clientBytes), authenticatorData.length);
  try {
    if (await verify(key, signature, data)) return null;
  } catch {
    return 'the passkey is not a key this browser can read';
  }
  return "the signature does not match the decision and the passkey's key";
}

/** Why a device key's Ed25519 signature (base64) over `content` does not verify with `key`, or null when it does. */
export async function deviceProblem(content: string, signature: string, key: ProofKey): Promise<string | null> {
  try {
    if (await ED25519(key, bytesOfBase64url(signature), new TextEncoder().encode(content))) return null;
  } catch {
    return 'the device key or the signature does not read';
  }
  return 'the signature does not match the decision and the device key';
}

/**
 * Checks `approval`'s receipt made with a member-held key: the signed content is this decision, and `proof` verifies
 * over it with `key`, the credential it names. Example: `await verifyMemberProof(approval, proof, key)` is
 * `{verified: true, fingerprint: 'SHA256:…'}` for an approval a passkey signed.
 */
export async function verifyMemberProof(approval: Approval, proof: StoredProof, key: ProofKey): Promise<ReceiptCheck> {
  const content = approval.signed_content;
  if (content === null) return { verified: false, reason: 'the decision carries no signed content' };
  const mismatch = contentMismatch(approval, content);
  if (mismatch !== null) return { verified: false, reason: mismatch };
  const problem = proof.kind === 'passkey' ? await passkeyProblem(content, proof, key) : await deviceProblem(content, proof.signature, key);
  if (problem !== null) return { verified: false, reason: problem };
  return { verified: true, fingerprint: await fingerprintOf(derOfPem(key.public_key)) };
}
