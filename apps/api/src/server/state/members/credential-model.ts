// Keys a member holds themself (docs/approver-keys.md): passkeys and device keys, as both stores keep them. Only
// public halves are stored; a revoked credential's row stays, so the approvals it signed still verify. Pure: the
// stores run the statements (sqlite.ts, postgres.ts) and the verifiers read the rows (approvals/proofs.ts).
import type { Placeholder, Statement } from '../statement.ts';

export type CredentialKind = 'passkey' | 'device';

/** The signature algorithms a credential may use: a passkey's COSE algorithm, by name, or a device key's Ed25519. */
export type CredentialAlgorithm = 'ES256' | 'EdDSA' | 'RS256' | 'Ed25519';

export interface CredentialRow {
  /** A passkey's credential id (base64url, as the authenticator gave it); a device key's new id. */
  id: string;
  member_id: string;
  kind: CredentialKind;
  label: string | null;
  algorithm: CredentialAlgorithm;
  /** SPKI PEM: what an offline verifier needs. */
  public_key: string;
  /** A passkey's public key as COSE, base64url (what the WebAuthn verifier reads); null for a device key. */
  cose_key: string | null;
  /** The relying party a passkey is bound to; null for a device key. */
  rp_id: string | null;
  /** A passkey's signature counter as last seen (0 for an authenticator that keeps none). */
  counter: number;
  created_at: string;
  revoked_at: string | null;
}

/** The member_credentials table's columns, in its order. */
export const CREDENTIAL_COLUMNS = [
  'id',
  'member_id',
  'kind',
  'label',
  'algorithm',
  'public_key',
  'cose_key',
  'rp_id',
  'counter',
  'created_at',
  'revoked_at',
] as const satisfies readonly (keyof CredentialRow)[];

export const CREDENTIALS_SELECT = `SELECT ${CREDENTIAL_COLUMNS.join(', ')} FROM member_credentials`;

/** How many credentials a member may hold at once: enough for every device a person owns, few enough to list. */
export const MAX_CREDENTIALS_PER_MEMBER = 20;

/** A member's credentials, oldest first. */
export function credentialsOfQuery(memberId: string, mark: Placeholder): Statement {
  return { sql: `${CREDENTIALS_SELECT} WHERE member_id = ${mark(1)} ORDER BY created_at, id`, params: [memberId] };
}

/** The ids of the members holding at least one active credential (eligibility under approvals_require_member_keys). */
export const HOLDERS_SQL = 'SELECT DISTINCT member_id FROM member_credentials WHERE revoked_at IS NULL';

/**
 * Moves a passkey's counter forward in the decision's transaction: no row changes when the credential was revoked
 * meanwhile or another assertion moved it as far already (racing deciders with one passkey), so the decision is
 * refused rather than counted twice. An authenticator that keeps no counter (0 in and 0 out) moves nothing.
 */
export function counterStatement(id: string, counter: number, mark: Placeholder): Statement {
  return {
    sql: `UPDATE member_credentials SET counter = ${mark(1)} WHERE id = ${mark(2)} AND revoked_at IS NULL AND (counter < ${mark(3)} OR (${mark(4)} = 0 AND counter = 0))`,
    params: [counter, id, counter, counter],
  };
}

/** A row as a driver read it: PostgreSQL answers a BIGINT counter as text. */
export function credentialOf(row: CredentialRow): CredentialRow {
  return typeof row.counter === 'number' ? row : { ...row, counter: Number(row.counter) };
}
