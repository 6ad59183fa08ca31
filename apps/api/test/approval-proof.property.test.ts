// The proof checks (approvals/proof.ts) on generated proofs: a passkey's assertion or a device key's signature over
// generated content holds as made, and no change of one byte of what it signs, of its client data, authenticator data
// or signature, nor of the content, ever holds: the server refuses it and `audit verify` names it. ES256 and Ed25519
// passkeys from the software authenticator, Ed25519 device keys.
import { createPublicKey, generateKeyPairSync, sign } from 'node:crypto';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { challengeOf, checkDeviceProof, checkPasskeyProof, type PasskeyProof } from '../src/server/approvals/proof.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

const ORIGIN = 'http://localhost:4317';
const CREATION: PublicKeyCredentialCreationOptionsJSON = {
  rp: { id: 'localhost', name: 'Tollgate' },
  user: { id: 'bWVtYmVy', name: 'april', displayName: 'april' },
  challenge: 'AAAA',
  pubKeyCredParams: [
    { type: 'public-key', alg: -7 },
    { type: 'public-key', alg: -8 },
  ],
};

const authenticators = {
  ES256: new SoftAuthenticator({ algorithm: 'ES256' }),
  Ed25519: new SoftAuthenticator({ algorithm: 'Ed25519' }),
};
for (const a of Object.values(authenticators)) a.register(CREATION, ORIGIN);
const device = generateKeyPairSync('ed25519');

/** Content as an approver signs it: canonical-looking JSON with any text in it. */
const content = fc
  .record({ id: fc.uuid(), call_id: fc.string({ minLength: 1, maxLength: 40 }), decision: fc.constantFrom('approved', 'denied') })
  .map((c) => JSON.stringify(c));

function passkeyProof(which: keyof typeof authenticators, text: string): PasskeyProof {
  const r = authenticators[which].assert({ challenge: challengeOf(text), rpId: 'localhost' }, ORIGIN);
  return {
    kind: 'passkey',
    credential_id: r.id,
    authenticator_data: r.response.authenticatorData,
    client_data_json: r.response.clientDataJSON,
    signature: r.response.signature,
  };
}

/** The text with one character changed (its code XOR a non-zero value below 32, so it stays one UTF-16 unit). */
function changed(text: string, at: number, by: number): string {
  const i = at % text.length;
  return `${text.slice(0, i)}${String.fromCharCode(text.charCodeAt(i) ^ (by & 0x1f || 1))}${text.slice(i + 1)}`;
}

/** One byte of a base64url part changed (XOR with a non-zero value). */
function flipped(part: string, at: number, by: number): string {
  const bytes = Buffer.from(part, 'base64url');
  const i = at % bytes.length;
  bytes[i] = (bytes[i] as number) ^ by;
  return bytes.toString('base64url');
}

describe('approval proofs', () => {
  it('a passkey assertion holds as made, and no one-byte change of it or of the content holds', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ES256', 'Ed25519' as const),
        content,
        fc.constantFrom('authenticator_data', 'client_data_json', 'signature', 'content'),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (which, text, part, at, by) => {
          const proof = passkeyProof(which as keyof typeof authenticators, text);
          const key = createPublicKey(authenticators[which as keyof typeof authenticators].publicKeyPem);
          expect(checkPasskeyProof(proof, text, key, 'localhost').ok).toBe(true);
          const bad =
            part === 'content'
              ? checkPasskeyProof(proof, changed(text, at, by), key, 'localhost')
              : checkPasskeyProof({ ...proof, [part]: flipped(proof[part as keyof PasskeyProof], at, by) }, text, key, 'localhost');
          expect(bad.ok).toBe(false);
          // Another relying party's, or another credential's key, never holds either.
          expect(checkPasskeyProof(proof, text, key, 'example.com').ok).toBe(false);
          const other = createPublicKey(authenticators[which === 'ES256' ? 'Ed25519' : 'ES256'].publicKeyPem);
          expect(checkPasskeyProof(proof, text, other, 'localhost').ok).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a device signature holds as made, and no one-byte change of it or of the content holds', () => {
    fc.assert(
      fc.property(content, fc.boolean(), fc.nat(), fc.integer({ min: 1, max: 255 }), (text, onSignature, at, by) => {
        const signature = sign(null, Buffer.from(text, 'utf8'), device.privateKey).toString('base64');
        const proof = { kind: 'device' as const, credential_id: 'device-x', signature };
        expect(checkDeviceProof(proof, text, device.publicKey).ok).toBe(true);
        const bad = onSignature
          ? checkDeviceProof(
              {
                ...proof,
                signature: Buffer.from(flipped(Buffer.from(signature, 'base64').toString('base64url'), at, by), 'base64url').toString(
                  'base64',
                ),
              },
              text,
              device.publicKey,
            )
          : checkDeviceProof(proof, changed(text, at, by), device.publicKey);
        expect(bad.ok).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
