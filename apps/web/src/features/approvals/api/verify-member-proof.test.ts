// The browser's check of member-held proofs with real keys: a P-256 passkey assertion built as an authenticator
// builds one, and an Ed25519 device signature, verify over their content; another content, a changed signature,
// a missing user-verified flag or another key fail with a reason.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengeOf, deviceProblem, type PasskeyParts, passkeyProblem, rawOfDerSignature } from './verify-member-proof.ts';

const b64url = (bytes: Buffer) => bytes.toString('base64url');
const CONTENT = '{"call_id":"c1","decision":"approved","id":"a1"}';

function es256() {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { privateKey, key: { public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(), algorithm: 'ES256' } };
}

/** An assertion over `content` as an authenticator makes one: DER ECDSA over authenticator data || SHA-256(client data). */
async function assertion(privateKey: ReturnType<typeof es256>['privateKey'], content: string, flags = 0x05): Promise<PasskeyParts> {
  const clientData = Buffer.from(
    JSON.stringify({ type: 'webauthn.get', challenge: await challengeOf(content), origin: 'http://localhost:4317' }),
  );
  const authenticatorData = Buffer.concat([createHash('sha256').update('localhost').digest(), Buffer.from([flags, 0, 0, 0, 7])]);
  const data = Buffer.concat([authenticatorData, createHash('sha256').update(clientData).digest()]);
  return {
    authenticator_data: b64url(authenticatorData),
    client_data_json: b64url(clientData),
    signature: b64url(sign('sha256', data, privateKey)),
  };
}

describe('passkeyProblem', () => {
  it('verifies an assertion over the content with the passkey that made it', async () => {
    const { privateKey, key } = es256();
    expect(await passkeyProblem(CONTENT, await assertion(privateKey, CONTENT), key)).toBeNull();
  });

  it('refuses another content, another key, a changed signature and an unverified user', async () => {
    const { privateKey, key } = es256();
    const parts = await assertion(privateKey, CONTENT);
    expect(await passkeyProblem(CONTENT.replace('approved', 'denied'), parts, key)).toMatch(/another content/);
    expect(await passkeyProblem(CONTENT, parts, es256().key)).toMatch(/does not match/);
    const signature = Buffer.from(parts.signature, 'base64url');
    signature.writeUInt8(signature.readUInt8(signature.length - 1) ^ 1, signature.length - 1);
    expect(await passkeyProblem(CONTENT, { ...parts, signature: b64url(signature) }, key)).toMatch(/does not match|read/);
    expect(await passkeyProblem(CONTENT, await assertion(privateKey, CONTENT, 0x01), key)).toMatch(/did not verify the user/);
  });
});

describe('rawOfDerSignature', () => {
  it('turns DER into r || s of 32 bytes each, short integers padded', () => {
    const der = Uint8Array.from([0x30, 0x08, 0x02, 0x02, 0x00, 0x81, 0x02, 0x02, 0x01, 0x02]);
    const raw = rawOfDerSignature(der) as Uint8Array;
    expect(raw.length).toBe(64);
    expect(raw[31]).toBe(0x81);
    expect([raw[62], raw[63]]).toEqual([1, 2]);
    expect(rawOfDerSignature(Uint8Array.from([0x31, 0]))).toBeNull();
  });
});

describe('deviceProblem', () => {
  it('verifies an Ed25519 signature over the content, and refuses one over another', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const key = { public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(), algorithm: 'Ed25519' };
    const signature = sign(null, Buffer.from(CONTENT), privateKey).toString('base64');
    expect(await deviceProblem(CONTENT, signature, key)).toBeNull();
    expect(await deviceProblem(`${CONTENT} `, signature, key)).toMatch(/does not match/);
  });
});
