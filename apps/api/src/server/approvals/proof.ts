// A decision's proof checked with only public keys (docs/approver-keys.md): what the server checks before a
// member-held signature counts, and what `tollgate audit verify` and `verify-receipt` check offline. A passkey's
// assertion signs its authenticator data and the SHA-256 of its client data, whose challenge is the digest of the
// signed content; a device key signs the content itself. node:crypto only, so any verifier can follow it.
import { createHash, createPublicKey, type KeyObject, verify } from 'node:crypto';
import { readJsonText } from '@tollgate/engine/source';

/** A passkey's assertion as the request keeps it, each part base64url as WebAuthn gives it. */
export interface PasskeyProof {
  kind: 'passkey';
  credential_id: string;
  authenticator_data: string;
  client_data_json: string;
  signature: string;
}

/** A device key's signature (base64, Ed25519 over the signed content's UTF-8). */
export interface DeviceProof {
  kind: 'device';
  credential_id: string;
  signature: string;
}

export type StoredProof = PasskeyProof | DeviceProof;

/** Why a proof does not hold, each answered with its own code by the API (server/approvals/decide.ts). */
export type ProofFault = 'content' | 'user_not_verified' | 'signature' | 'relying_party';

export type ProofCheck = { ok: true; counter: number } | { ok: false; fault: ProofFault; message: string };

/** A client data JSON longer than this is no browser's: refused unread. */
const MAX_CLIENT_DATA_BYTES = 16 * 1024;
const FLAG_USER_VERIFIED = 0x04;

/** The challenge a passkey signs for `content`: the base64url SHA-256 of its UTF-8. */
export function challengeOf(content: string): string {
  return createHash('sha256').update(content, 'utf8').digest('base64url');
}

/** A public key from SPKI PEM, or undefined when it does not read. */
export function publicKeyOf(pem: string): KeyObject | undefined {
  try {
    return createPublicKey(pem);
  } catch {
    return undefined;
  }
}

/**
 * Checks a passkey's assertion over `content` with the credential's public key and relying party: the client data is
 * a `webauthn.get` whose challenge is challengeOf(content), the authenticator data names the relying party and says
 * the user was verified, and the signature holds. Answers the assertion's signature counter.
 *
 * @example
 * checkPasskeyProof(proof, content, publicKeyOf(pem), 'localhost') // { ok: true, counter: 7 }
 */
export function checkPasskeyProof(proof: PasskeyProof, content: string, key: KeyObject, rpId: string): ProofCheck {
  const clientData = Buffer.from(proof.client_data_json, 'base64url');
  const authData = Buffer.from(proof.authenticator_data, 'base64url');
  if (clientData.length > MAX_CLIENT_DATA_BYTES) return fault('content', 'the client data is longer than any browser writes');
  const read = readJsonText(clientData.toString('utf8'), { maxLength: MAX_CLIENT_DATA_BYTES, maxDepth: 4 });
  const data = read.ok && read.diagnostics.length === 0 && isObject(read.value) ? read.value : undefined;
  if (data?.type !== 'webauthn.get') return fault('content', 'the client data is not of an assertion (webauthn.get)');
  if (data.challenge !== challengeOf(content)) return fault('content', "the assertion's challenge is not the digest of the signed content");
  if (authData.length < 37) return fault('signature', 'the authenticator data is shorter than 37 bytes');
  const rpIdHash = createHash('sha256').update(rpId, 'utf8').digest();
  if (!authData.subarray(0, 32).equals(rpIdHash)) return fault('relying_party', `the assertion is not for the relying party ${rpId}`);
  if (((authData[32] as number) & FLAG_USER_VERIFIED) === 0) return fault('user_not_verified', 'the authenticator did not verify the user');
  const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
  if (!signatureHolds(key, signed, Buffer.from(proof.signature, 'base64url')))
    return fault('signature', "the assertion's signature does not verify with the credential's public key");
  return { ok: true, counter: authData.readUInt32BE(33) };
}

/** Checks a device key's Ed25519 signature (base64) over the content's UTF-8. */
export function checkDeviceProof(proof: DeviceProof, content: string, key: KeyObject): ProofCheck {
  if (key.asymmetricKeyType !== 'ed25519') return fault('signature', 'a device key is an Ed25519 key');
  if (!signatureHolds(key, Buffer.from(content, 'utf8'), Buffer.from(proof.signature, 'base64')))
    return fault('signature', 'the signature does not verify with the device key');
  return { ok: true, counter: 0 };
}

/** A passkey signs with ES256 (DER), EdDSA or RS256; a device key with Ed25519. Any other key verifies nothing. */
function signatureHolds(key: KeyObject, data: Buffer, signature: Buffer): boolean {
  try {
    if (key.asymmetricKeyType === 'ed25519') return verify(null, data, key, signature);
    if (key.asymmetricKeyType === 'ec') return verify('sha256', data, { key, dsaEncoding: 'der' }, signature);
    if (key.asymmetricKeyType === 'rsa') return verify('sha256', data, key, signature);
    return false;
  } catch {
    return false;
  }
}

/**
 * A stored proof read back (the request's `proof` column or a record entry's), or undefined when it is not one.
 *
 * @example
 * storedProofOf('{"kind":"device","credential_id":"device-…","signature":"…"}') // { kind: 'device', … }
 */
export function storedProofOf(value: unknown): StoredProof | undefined {
  if (!isObject(value) || typeof value.credential_id !== 'string' || typeof value.signature !== 'string') return undefined;
  if (value.kind === 'device') return { kind: 'device', credential_id: value.credential_id, signature: value.signature };
  if (value.kind === 'passkey' && typeof value.authenticator_data === 'string' && typeof value.client_data_json === 'string') {
    return {
      kind: 'passkey',
      credential_id: value.credential_id,
      authenticator_data: value.authenticator_data,
      client_data_json: value.client_data_json,
      signature: value.signature,
    };
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fault(kind: ProofFault, message: string): ProofCheck {
  return { ok: false, fault: kind, message };
}
