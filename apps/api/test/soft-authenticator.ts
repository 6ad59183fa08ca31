// A software WebAuthn authenticator for API tests in Node: it answers creation and request options with exactly the
// JSON that `startRegistration` / `startAuthentication` of @simplewebauthn/browser return, so tests drive the
// passkey enrolment and passkey proofs of docs/approver-keys.md without a browser. Built from node:crypto alone
// (with a few lines of CBOR), so it checks the server's verifier rather than sharing its code.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';

export type SoftAlgorithm = 'ES256' | 'Ed25519';

export interface SoftAuthenticatorOptions {
  /** The key type of the credentials it makes: ES256 (P-256, COSE -7, the default) or Ed25519 (COSE -8). */
  algorithm?: SoftAlgorithm;
  /** Whether it sets the user-verified flag (UV); true by default. */
  userVerified?: boolean;
  /** The signature counter before the first assertion (0 by default); each assertion reports one more. */
  counterStart?: number;
}

/** What an assertion's request needs; a `PublicKeyCredentialRequestOptionsJSON` is one. */
export interface SoftRequestOptions {
  challenge: string;
  /** The relying party; the origin's host name when absent, as a browser does. */
  rpId?: string;
  allowCredentials?: readonly { id: string }[];
}

/** Changes to one assertion, to make a bad one; each overrides what the authenticator would otherwise put. */
export interface AssertionTweak {
  userVerified?: boolean;
  /** The counter this assertion reports; the authenticator's own counter stays as it was. */
  counter?: number;
  challenge?: string;
  origin?: string;
  /** The rp id hashed into the authenticator data (the credential is still looked up by the request's rp id). */
  rpId?: string;
}

interface SoftCredential {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

const COSE_ALGORITHM: Record<SoftAlgorithm, number> = { ES256: -7, Ed25519: -8 };

// Authenticator data flags (WebAuthn Level 3, "Authenticator Data").
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export class SoftAuthenticator {
  readonly algorithm: SoftAlgorithm;
  private readonly userVerified: boolean;
  private signCount: number;
  private readonly credentials: SoftCredential[] = [];

  constructor(options: SoftAuthenticatorOptions = {}) {
    this.algorithm = options.algorithm ?? 'ES256';
    this.userVerified = options.userVerified ?? true;
    this.signCount = options.counterStart ?? 0;
  }

  /** The base64url id of the credential registered last. */
  get credentialId(): string {
    return this.latest().id.toString('base64url');
  }

  /** The SPKI PEM public key of the credential registered last. */
  get publicKeyPem(): string {
    return this.latest().publicKey.export({ type: 'spki', format: 'pem' }).toString();
  }

  /** The signature counter: the one the last assertion reported (or the start). */
  get counter(): number {
    return this.signCount;
  }

  /** Sets the counter; the next assertion reports n + 1. */
  setCounter(n: number): void {
    this.signCount = n;
  }

  /** Makes a fresh credential for `options.rp.id` and answers as `startRegistration` does (attestation 'none'). */
  register(options: PublicKeyCredentialCreationOptionsJSON, origin: string): RegistrationResponseJSON {
    const alg = COSE_ALGORITHM[this.algorithm];
    if (!options.pubKeyCredParams.some((p) => p.alg === alg)) {
      throw new Error(`NotSupportedError: the options do not offer COSE algorithm ${alg} (${this.algorithm})`);
    }
    const rpId = options.rp.id ?? new URL(origin).hostname;
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(c.id.toString('base64url')))) {
      throw new Error('InvalidStateError: the authenticator already holds an excluded credential');
    }
    const { privateKey, publicKey } =
      this.algorithm === 'ES256' ? generateKeyPairSync('ec', { namedCurve: 'P-256' }) : generateKeyPairSync('ed25519');
    const credential: SoftCredential = { id: randomBytes(32), rpId, userHandle: options.user.id, privateKey, publicKey };
    this.credentials.push(credential);

    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const attestedCredentialData = Buffer.concat([
      Buffer.alloc(16), // AAGUID: all zeros, as attestation 'none' reports
      idLength,
      credential.id,
      coseKey(publicKey, this.algorithm),
    ]);
    const authenticatorData = Buffer.concat([
      authenticatorDataHead(rpId, this.flags(this.userVerified) | FLAG_AT, this.signCount),
      attestedCredentialData,
    ]);
    const attestationObject = cbor(
      new Map<string, CborValue>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authenticatorData],
      ]),
    );
    const id = credential.id.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData('webauthn.create', options.challenge, origin).toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        transports: ['internal'],
        publicKeyAlgorithm: alg,
        publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64url'),
      },
    };
  }

  /**
   * Answers request options as `startAuthentication` does: signs authenticatorData || sha256(clientDataJSON) with the
   * credential named first in `allowCredentials` that it holds for the rp id (or the last registered for it), after
   * incrementing the counter. ES256 signatures are DER, Ed25519 ones raw, as WebAuthn requires.
   */
  assert(options: SoftRequestOptions, origin: string, tweak: AssertionTweak = {}): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(origin).hostname;
    const credential = this.pick(rpId, options.allowCredentials);
    let counter: number;
    if (tweak.counter === undefined) {
      this.signCount += 1;
      counter = this.signCount;
    } else {
      counter = tweak.counter;
    }
    const authenticatorData = authenticatorDataHead(tweak.rpId ?? rpId, this.flags(tweak.userVerified ?? this.userVerified), counter);
    const clientDataJSON = clientData('webauthn.get', tweak.challenge ?? options.challenge, tweak.origin ?? origin);
    const signed = Buffer.concat([authenticatorData, sha256(clientDataJSON)]);
    const signature =
      this.algorithm === 'ES256'
        ? sign('sha256', signed, { key: credential.privateKey, dsaEncoding: 'der' })
        : sign(null, signed, credential.privateKey);
    const id = credential.id.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authenticatorData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
    };
  }

  private flags(userVerified: boolean): number {
    return FLAG_UP | (userVerified ? FLAG_UV : 0);
  }

  private latest(): SoftCredential {
    const credential = this.credentials.at(-1);
    if (!credential) throw new Error('the authenticator has no credential yet: register first');
    return credential;
  }

  private pick(rpId: string, allow: readonly { id: string }[] | undefined): SoftCredential {
    const held = this.credentials.filter((c) => c.rpId === rpId);
    const found =
      allow && allow.length > 0
        ? allow.map((a) => held.find((c) => c.id.toString('base64url') === a.id)).find((c) => c !== undefined)
        : held.at(-1);
    if (!found) throw new Error(`NotAllowedError: the authenticator holds no allowed credential for ${rpId}`);
    return found;
  }
}

function sha256(data: Buffer | string): Buffer {
  return createHash('sha256').update(data).digest();
}

/** rpIdHash (32) | flags (1) | signCount (4, big-endian). */
function authenticatorDataHead(rpId: string, flags: number, counter: number): Buffer {
  const tail = Buffer.alloc(5);
  tail.writeUInt8(flags, 0);
  tail.writeUInt32BE(counter, 1);
  return Buffer.concat([sha256(rpId), tail]);
}

/** The client data a browser serializes, in its member order. */
function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

/** The credential public key as a COSE_Key (RFC 9053): EC2 P-256 for ES256, OKP Ed25519 for EdDSA. */
function coseKey(publicKey: KeyObject, algorithm: SoftAlgorithm): Buffer {
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  if (algorithm === 'ES256') {
    const y = Buffer.from(jwk.y ?? '', 'base64url');
    return cbor(
      new Map<number, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, x],
        [-3, y],
      ]),
    );
  }
  return cbor(
    new Map<number, CborValue>([
      [1, 1], // kty: OKP
      [3, -8], // alg: EdDSA
      [-1, 6], // crv: Ed25519
      [-2, x],
    ]),
  );
}

type CborValue = number | string | Buffer | Map<number | string, CborValue>;

/** The few CBOR types (RFC 8949) attestation objects and COSE keys need: integers, byte and text strings, maps. */
function cbor(value: CborValue): Buffer {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`cbor: not an integer: ${value}`);
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (Buffer.isBuffer(value)) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [cborHead(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

function cborHead(major: number, n: number): Buffer {
  const type = major << 5;
  if (n < 24) return Buffer.from([type | n]);
  if (n < 0x100) return Buffer.from([type | 24, n]);
  if (n < 0x10000) {
    const b = Buffer.alloc(3);
    b.writeUInt8(type | 25, 0);
    b.writeUInt16BE(n, 1);
    return b;
  }
  const b = Buffer.alloc(5);
  b.writeUInt8(type | 26, 0);
  b.writeUInt32BE(n, 1);
  return b;
}
