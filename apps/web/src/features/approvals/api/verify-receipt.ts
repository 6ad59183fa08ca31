// Checks a decision's receipt in the browser with Web Crypto: the Ed25519 signature over signed_content,
// against the decider's public key (SPKI PEM, GET /v1/members/{id}/public-key), and that the signed content
// is this decision (docs/api.md, "Decisions, approvals, claims and signatures"; docs/console.md).
import type { Approval } from './types.ts';

/** What the check found: verified with the key's fingerprint, or failed with a reason a person can read. */
export type ReceiptCheck = { verified: true; fingerprint: string } | { verified: false; reason: string };

/** The DER bytes of a PEM block. Example: `derOfPem('-----BEGIN PUBLIC KEY-----\nMCow…\n-----END PUBLIC KEY-----')`. */
export function derOfPem(pem: string): Uint8Array<ArrayBuffer> {
  const body = pem.replace(/-----(BEGIN|END) [A-Z ]+-----/g, '').replace(/\s+/g, '');
  return bytesOfBase64(body);
}

function bytesOfBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `SHA256:` and the unpadded base64 of the SHA-256 of the key's SPKI DER, as the API answers it (`fingerprint`). */
export async function fingerprintOf(spkiDer: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', spkiDer));
  return `SHA256:${btoa(String.fromCharCode(...digest)).replace(/=+$/, '')}`;
}

/** The fields of signed_content that must be this approval's, so a valid signature over another decision fails. */
const BOUND = ['id', 'call_id', 'agent', 'tool', 'decided_by', 'decided_at'] as const;

/** Why `content` is not `approval`'s decision (another decision, request, call, decider or time), or null when it is. */
export function contentMismatch(approval: Approval, content: string): string | null {
  let signed: unknown;
  try {
    // The server writes signed_content itself, as canonical JSON of its own values (docs/architecture.md).
    signed = JSON.parse(content);
  } catch {
    return 'the signed content is not JSON';
  }
  if (typeof signed !== 'object' || signed === null) return 'the signed content is not an object';
  const fields = signed as Record<string, unknown>;
  if (fields.decision !== approval.status) return `the signed decision is ${String(fields.decision)}, not ${approval.status}`;
  const wrong = BOUND.find((name) => fields[name] !== approval[name]);
  return wrong === undefined ? null : `the signed ${wrong} is not this request's`;
}

/**
 * Verifies `approval`'s signature with the decider's public key. Example: `await verifyReceipt(approval, pem)`
 * is `{verified: true, fingerprint: 'SHA256:…'}` for a receipt the API signed with that member's key.
 */
export async function verifyReceipt(approval: Approval, publicKeyPem: string): Promise<ReceiptCheck> {
  if (approval.signature === null || approval.signed_content === null)
    return { verified: false, reason: 'the decision carries no signature' };
  const mismatch = contentMismatch(approval, approval.signed_content);
  if (mismatch !== null) return { verified: false, reason: mismatch };
  let der: Uint8Array<ArrayBuffer>;
  let signature: Uint8Array<ArrayBuffer>;
  try {
    der = derOfPem(publicKeyPem);
    signature = bytesOfBase64(approval.signature);
  } catch {
    return { verified: false, reason: 'the key or the signature is not base64' };
  }
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey('spki', der, { name: 'Ed25519' }, false, ['verify']);
  } catch {
    return { verified: false, reason: 'the public key is not an Ed25519 key this browser can read' };
  }
  const data = new TextEncoder().encode(approval.signed_content);
  const ok = await crypto.subtle.verify({ name: 'Ed25519' }, key, signature, data);
  if (!ok) return { verified: false, reason: "the signature does not match the signed content and the decider's key" };
  return { verified: true, fingerprint: await fingerprintOf(der) };
}
