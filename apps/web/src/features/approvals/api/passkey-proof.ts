// Signs a decision's content with one of the member's passkeys: the browser asks the authenticator for an
// assertion whose challenge is the content's digest (docs/approver-keys.md, "What is signed").
import { type PublicKeyCredentialRequestOptionsJSON, startAuthentication } from '@simplewebauthn/browser';
import type { DecisionChallenge, DecisionProof } from './types.ts';

/** The person dismissed the passkey prompt (or it timed out): nothing was sent, the call stays held. */
export class PasskeyCancelled extends Error {
  constructor() {
    super('The passkey prompt was cancelled: nothing was sent, and the call is still held.');
    this.name = 'PasskeyCancelled';
  }
}

/**
 * Whether `error` from a WebAuthn ceremony means the person did not go through with it. Browsers answer a
 * dismissed or timed-out prompt with NotAllowedError (AbortError when aborted); @simplewebauthn/browser keeps
 * that name on its WebAuthnError. Example: `wasCancelled(new DOMException('', 'NotAllowedError'))` is true.
 */
export function wasCancelled(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = error.cause instanceof Error ? error.cause.name : undefined;
  return [error.name, cause].some((name) => name === 'NotAllowedError' || name === 'AbortError');
}

/** The body members of a passkey decision; throws PasskeyCancelled when the prompt is dismissed. */
export async function passkeyProof(challenge: DecisionChallenge & { passkey: NonNullable<DecisionChallenge['passkey']> }): Promise<{
  signed_content: string;
  proof: DecisionProof;
}> {
  let response: Awaited<ReturnType<typeof startAuthentication>>;
  try {
    // The API answers PublicKeyCredentialRequestOptionsJSON (docs/approver-keys.md); its schema says only "an object".
    response = await startAuthentication({ optionsJSON: challenge.passkey as unknown as PublicKeyCredentialRequestOptionsJSON });
  } catch (error) {
    if (wasCancelled(error)) throw new PasskeyCancelled();
    throw error;
  }
  // The extension results are copied to a plain object, as the wire type is an open record.
  const sent = { ...response, clientExtensionResults: { ...response.clientExtensionResults } };
  return { signed_content: challenge.content, proof: { kind: 'passkey', credential_id: response.id, response: sent } };
}
