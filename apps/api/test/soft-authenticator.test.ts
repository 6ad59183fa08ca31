// The software authenticator (soft-authenticator.ts) against the verifier the server uses, @simplewebauthn/server:
// what it answers verifies with user verification required, and each kind of bad assertion it can make is refused.
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from '@simplewebauthn/server';
import { describe, expect, it } from 'vitest';
import { type AssertionTweak, type SoftAlgorithm, SoftAuthenticator } from './soft-authenticator.ts';

const RP_ID = 'localhost';
const ORIGIN = 'http://localhost:8080';

async function enrol(authenticator: SoftAuthenticator): Promise<WebAuthnCredential> {
  const options = await generateRegistrationOptions({
    rpName: 'Tollgate',
    rpID: RP_ID,
    userName: 'ada@example.com',
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
  const response = authenticator.register(options, ORIGIN);
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });
  expect(verification.verified).toBe(true);
  if (!verification.verified) throw new Error('registration did not verify');
  return verification.registrationInfo.credential;
}

async function verifyAssertion(
  authenticator: SoftAuthenticator,
  credential: WebAuthnCredential,
  tweak?: AssertionTweak,
  mangle: (response: AuthenticationResponseJSON) => AuthenticationResponseJSON = (r) => r,
) {
  const options = await generateAuthenticationOptions({
    rpID: RP_ID,
    allowCredentials: [{ id: credential.id }],
    userVerification: 'required',
  });
  return verifyAuthenticationResponse({
    response: mangle(authenticator.assert(options, ORIGIN, tweak)),
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    credential,
    requireUserVerification: true,
  });
}

/** Why the verifier refused: its error's message, or 'not verified' when it answered verified: false. */
async function refusal(verifying: Promise<{ verified: boolean }>): Promise<string> {
  try {
    const result = await verifying;
    return result.verified ? 'verified' : 'not verified';
  } catch (error) {
    return (error as Error).message;
  }
}

/** The signature with one byte flipped near its end (inside s for DER, inside S for Ed25519). */
function flipSignature(response: AuthenticationResponseJSON): AuthenticationResponseJSON {
  const signature = Buffer.from(response.response.signature, 'base64url');
  signature[signature.length - 2] = (signature[signature.length - 2] ?? 0) ^ 0x01;
  return { ...response, response: { ...response.response, signature: signature.toString('base64url') } };
}

const ALGORITHMS: [SoftAlgorithm, number][] = [
  ['ES256', -7],
  ['Ed25519', -8],
];

describe.each(ALGORITHMS)('a software authenticator with %s', (algorithm, coseAlgorithm) => {
  it('registers a credential that verifies, with attestation none and the chosen algorithm', async () => {
    const authenticator = new SoftAuthenticator({ algorithm });
    const credential = await enrol(authenticator);
    expect(credential.id).toBe(authenticator.credentialId);
    expect(credential.counter).toBe(0);

    const options = await generateRegistrationOptions({ rpName: 'Tollgate', rpID: RP_ID, userName: 'grace' });
    const response = authenticator.register(options, ORIGIN);
    expect(response.response.publicKeyAlgorithm).toBe(coseAlgorithm);
    expect(response.id).not.toBe(credential.id);
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      requireUserVerification: true,
    });
    expect(verification.verified && verification.registrationInfo.fmt).toBe('none');
    expect(verification.verified && verification.registrationInfo.userVerified).toBe(true);
  });

  it('asserts with a counter one above the last, and the verifier returns it', async () => {
    const authenticator = new SoftAuthenticator({ algorithm, counterStart: 41 });
    const credential = await enrol(authenticator);
    expect(credential.counter).toBe(41);

    const first = await verifyAssertion(authenticator, credential);
    expect(first.verified).toBe(true);
    expect(first.authenticationInfo.newCounter).toBe(42);
    expect(first.authenticationInfo.userVerified).toBe(true);
    credential.counter = first.authenticationInfo.newCounter;

    const second = await verifyAssertion(authenticator, credential);
    expect(second.authenticationInfo.newCounter).toBe(43);
    expect(authenticator.counter).toBe(43);

    authenticator.setCounter(99);
    expect((await verifyAssertion(authenticator, credential)).authenticationInfo.newCounter).toBe(100);
  });

  it('makes bad assertions on request, each refused by the verifier', async () => {
    const authenticator = new SoftAuthenticator({ algorithm });
    const credential = await enrol(authenticator);
    credential.counter = (await verifyAssertion(authenticator, credential)).authenticationInfo.newCounter;

    const other = Buffer.alloc(32, 7).toString('base64url');
    expect(await refusal(verifyAssertion(authenticator, credential, { challenge: other }))).toMatch(
      /unexpected authentication response challenge/i,
    );
    expect(await refusal(verifyAssertion(authenticator, credential, { userVerified: false }))).toMatch(/user verification required/i);
    expect(await refusal(verifyAssertion(authenticator, credential, {}, flipSignature))).toBe('not verified');
    expect(await refusal(verifyAssertion(authenticator, credential, { origin: 'http://evil.test' }))).toMatch(
      /unexpected authentication response origin/i,
    );
    expect(await refusal(verifyAssertion(authenticator, credential, { rpId: 'evil.test' }))).toMatch(/rp ?id/i);
    expect(await refusal(verifyAssertion(authenticator, credential, { counter: 1 }))).toMatch(/counter value 1/i);

    // The tweaks touched only their one assertion: the next plain one verifies.
    expect((await verifyAssertion(authenticator, credential)).verified).toBe(true);
  });
});

describe('a software authenticator', () => {
  it('without user verification registers nothing the server accepts when it requires verification', async () => {
    const authenticator = new SoftAuthenticator({ userVerified: false });
    const options = await generateRegistrationOptions({ rpName: 'Tollgate', rpID: RP_ID, userName: 'ada' });
    const refused = await refusal(
      verifyRegistrationResponse({
        response: authenticator.register(options, ORIGIN),
        expectedChallenge: options.challenge,
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        requireUserVerification: true,
      }),
    );
    expect(refused).toMatch(/user verification/i);
  });

  it('signs with the credential allowCredentials names, and refuses when it holds none of them', async () => {
    const authenticator = new SoftAuthenticator();
    const first = await enrol(authenticator);
    const second = await enrol(authenticator);
    expect(authenticator.credentialId).toBe(second.id);

    const options = await generateAuthenticationOptions({ rpID: RP_ID, allowCredentials: [{ id: first.id }] });
    const response = authenticator.assert(options, ORIGIN);
    expect(response.id).toBe(first.id);
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: options.challenge,
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential: first,
      requireUserVerification: true,
    });
    expect(verification.verified).toBe(true);

    expect(() => authenticator.assert({ ...options, allowCredentials: [{ id: 'AAAA' }] }, ORIGIN)).toThrow(/NotAllowedError/);
    expect(() => authenticator.assert({ ...options, rpId: 'example.com' }, ORIGIN)).toThrow(/NotAllowedError/);
  });

  it('refuses creation options that do not offer its algorithm', async () => {
    const options = await generateRegistrationOptions({
      rpName: 'Tollgate',
      rpID: RP_ID,
      userName: 'ada',
      supportedAlgorithmIDs: [-7],
    });
    expect(() => new SoftAuthenticator({ algorithm: 'Ed25519' }).register(options, ORIGIN)).toThrow(/NotSupportedError/);
  });
});
