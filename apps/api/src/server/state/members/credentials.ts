// A member's signing identity and API keys, made for both stores: keys are random, shown once and stored as
// sha-256 hashes; each member gets an Ed25519 key pair, since approving means signing
// (approvals/signed-decision.ts), its private half sealed with the operator's secret (custodial-keys.ts).
// node:crypto, so beside the pure model rather than in it.
import { generateKeyPairSync, hash, randomBytes, randomUUID } from 'node:crypto';
import type { FreshKey } from './changes.ts';
import type { CustodialKeys } from './custodial-keys.ts';
import type { MemberRow, Role } from './model.ts';

/** The stored form of a key: its sha-256 as hex (the one-shot hash, a third of createHash's cost). */
export function hashKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** A new member's row, with a new Ed25519 signing identity whose private half is sealed. */
export function newMemberRow(name: string, role: Role, now: Date, custodial: CustodialKeys): MemberRow {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return {
    id: randomUUID(),
    name,
    role,
    public_key: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    private_key: custodial.seal(privateKey),
    signing: 1,
    created_at: now.toISOString(),
    removed_at: null,
  };
}

/** A new key, and what is stored of it: a new id, its hash and its last four characters. The key itself is never stored. */
export function newKey(): { key: string; fresh: FreshKey } {
  const key = `tg_${randomBytes(24).toString('base64url')}`;
  return { key, fresh: { id: randomUUID(), hash: hashKey(key), hint: key.slice(-4) } };
}
