// The receipt check with real Ed25519 keys: a receipt signed as the API signs it verifies with the signer's
// key and names its fingerprint; another key, a changed byte, or content for another decision fail.
import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Approval } from './types.ts';
import { verifyReceipt } from './verify-receipt.ts';

function keyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return {
    privateKey,
    pem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    fingerprint: `SHA256:${createHash('sha256').update(der).digest('base64').replace(/=+$/, '')}`,
  };
}

const decided = {
  id: 'a1',
  call_id: 'c1',
  agent: 'support-bot',
  tool: 'issue_refund',
  status: 'approved',
  decided_by: 'm1',
  decided_at: '2026-04-01T10:02:30.000Z',
} as const;

/** An approval with its receipt, signed over canonical JSON (sorted keys) as the API signs it. */
function signedApproval(privateKey: ReturnType<typeof keyPair>['privateKey'], fields: Record<string, string> = {}): Approval {
  const content = {
    agent: decided.agent,
    arguments_digest: 'sha256:00',
    call_id: decided.call_id,
    decided_at: decided.decided_at,
    decided_by: decided.decided_by,
    decision: decided.status,
    id: decided.id,
    policy_document: 'policies/refunds.policy.json',
    policy_sequence: 1,
    rule: 'refund-approval',
    tool: decided.tool,
    ...fields,
  };
  const signedContent = JSON.stringify(content);
  const signature = sign(null, Buffer.from(signedContent, 'utf8'), privateKey).toString('base64');
  return { ...decided, signature, signed_content: signedContent } as unknown as Approval;
}

describe('verifyReceipt', () => {
  const signer = keyPair();
  const other = keyPair();

  it("verifies a receipt with the signer's key and names the key's fingerprint", async () => {
    expect(await verifyReceipt(signedApproval(signer.privateKey), signer.pem)).toEqual({ verified: true, fingerprint: signer.fingerprint });
  });

  it("fails with another member's key", async () => {
    const check = await verifyReceipt(signedApproval(signer.privateKey), other.pem);
    expect(check).toEqual({ verified: false, reason: expect.stringContaining('does not match') });
  });

  it('fails when any byte of the signature or the signed content changes (property)', async () => {
    const approval = signedApproval(signer.privateKey);
    const signature = Buffer.from(approval.signature ?? '', 'base64');
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: signature.length - 1 }), fc.integer({ min: 1, max: 255 }), async (at, flip) => {
        const changed = Buffer.from(signature);
        changed[at] = (changed[at] ?? 0) ^ flip;
        const check = await verifyReceipt({ ...approval, signature: changed.toString('base64') }, signer.pem);
        expect(check.verified).toBe(false);
      }),
      { numRuns: 40 },
    );
    const tampered = (approval.signed_content ?? '').replace('sha256:00', 'sha256:01');
    expect((await verifyReceipt({ ...approval, signed_content: tampered }, signer.pem)).verified).toBe(false);
  });

  it('fails a valid signature over another decision, or over another request', async () => {
    const denied = await verifyReceipt(signedApproval(signer.privateKey, { decision: 'denied' }), signer.pem);
    expect(denied).toEqual({ verified: false, reason: 'the signed decision is denied, not approved' });
    const otherCall = await verifyReceipt(signedApproval(signer.privateKey, { call_id: 'c2' }), signer.pem);
    expect(otherCall).toEqual({ verified: false, reason: "the signed call_id is not this request's" });
    const otherSigner = await verifyReceipt(signedApproval(signer.privateKey, { decided_by: 'm2' }), signer.pem);
    expect(otherSigner.verified).toBe(false);
  });

  it('fails a receipt with no signature, and a key that is not Ed25519', async () => {
    const approval = signedApproval(signer.privateKey);
    expect((await verifyReceipt({ ...approval, signature: null }, signer.pem)).verified).toBe(false);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(await verifyReceipt(approval, rsa)).toEqual({ verified: false, reason: expect.stringContaining('not an Ed25519 key') });
  });
});
