// Each approval the record holds checked against the key that signed it (docs/audit.md, docs/approver-keys.md): an
// `approval.decided` entry states what the member signed, the signature and, for a key the member holds, its proof;
// an export names each signer's public key (a member line, with the credential for a passkey or device key). The
// signature must verify with that key, and what was signed must be this decision of this request.
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { readJsonText } from '@tollgate/engine/source';
import { checkDeviceProof, checkPasskeyProof, type StoredProof, storedProofOf } from '../approvals/proof.ts';
import type { ChainEntry, RecordBreak } from './chain.ts';
import type { RecordReader } from './reader.ts';

/** A signer's public key as an export or a receipt names it: a member's custodial key, or a credential of theirs. */
export interface SignerLine {
  member: string;
  public_key: string;
  /** A passkey's or device key's id; absent for the custodial key. */
  credential?: string;
  kind?: 'passkey' | 'device';
  rp_id?: string | null;
}

export interface SignerKeys {
  /** Custodial keys by member id. */
  members: Map<string, KeyObject>;
  /** Member-held keys by credential id. */
  credentials: Map<string, { member: string; kind: 'passkey' | 'device'; key: KeyObject; rp_id: string | null }>;
}

/** The signers' public keys from PEM text; a key that does not read is left out (and so what it signed fails). */
export function memberKeysOf(lines: readonly SignerLine[]): SignerKeys {
  const keys: SignerKeys = { members: new Map(), credentials: new Map() };
  for (const line of lines) {
    let key: KeyObject;
    try {
      key = createPublicKey(line.public_key);
    } catch {
      continue;
    }
    if (line.credential !== undefined && line.kind !== undefined) {
      keys.credentials.set(line.credential, { member: line.member, kind: line.kind, key, rp_id: line.rp_id ?? null });
    } else if (key.asymmetricKeyType === 'ed25519') keys.members.set(line.member, key);
  }
  return keys;
}

/** The proof an `approval.decided` body states (its JSON text), undefined for a custodial signature. */
export function proofOfBody(body: ChainEntry['body']): StoredProof | 'unreadable' | undefined {
  if (body.proof === undefined || body.proof === null) return undefined;
  if (typeof body.proof !== 'string') return 'unreadable';
  const read = readJsonText(body.proof, { maxLength: 64 * 1024, maxDepth: 4 });
  return (read.ok && read.diagnostics.length === 0 && storedProofOf(read.value)) || 'unreadable';
}

/** The lines naming the keys that signed `decided` (approval.decided entries): custodial keys and credentials. */
export async function signerLinesOf(reader: RecordReader, decided: readonly ChainEntry[]): Promise<SignerLine[]> {
  const members = new Set<string>();
  const credentials = new Set<string>();
  for (const entry of decided) {
    if (!SIGNED_KINDS.has(entry.kind) || typeof entry.body.decided_by !== 'string') continue;
    const proof = proofOfBody(entry.body);
    if (proof === undefined) members.add(entry.body.decided_by);
    else if (proof !== 'unreadable') credentials.add(proof.credential_id);
  }
  const lines: SignerLine[] = (await reader.memberKeys([...members])).map(({ id, public_key }) => ({ member: id, public_key }));
  for (const c of await reader.credentialKeys([...credentials])) {
    lines.push({ member: c.member_id, public_key: c.public_key, credential: c.id, kind: c.kind, rp_id: c.rp_id });
  }
  return lines;
}

/** The entries that state a member's signed decision: a request decided, or a member's vote on one with a quorum. */
const SIGNED_KINDS = new Set(['approval.decided', 'approval.voted']);

/**
 * The first approval entry whose member signature does not hold, or a claim of a request no signed approval in the
 * record approved (a request set to approved in the database, bypassing the members, is claimed like any other) or,
 * for a request that needs a quorum, fewer than that many distinct members' signed approvals did; undefined when every
 * one holds. A part of a record (`partial`) may hold a claim without its approval: only the signatures there are
 * checked.
 */
export function firstBadApproval(
  entries: readonly ChainEntry[],
  members: SignerKeys,
  options: { partial?: boolean } = {},
): RecordBreak | undefined {
  const approved = new Set<unknown>();
  const quorums = new Map<unknown, number>();
  const voters = new Map<unknown, Set<unknown>>();
  for (const { kind, body } of entries) {
    if (kind === 'approval.requested' && typeof body.quorum === 'number') quorums.set(body.id, body.quorum);
    if (kind === 'approval.decided' && body.status === 'approved') approved.add(body.id);
    if (kind === 'approval.voted' && body.status === 'approved') {
      const set = voters.get(body.id) ?? new Set();
      set.add(body.decided_by);
      voters.set(body.id, set);
    }
  }
  for (const [index, entry] of entries.entries()) {
    const quorum = quorums.get(entry.body.id) ?? 1;
    const why = SIGNED_KINDS.has(entry.kind)
      ? approvalProblem(entry.body, members)
      : entry.kind === 'approval.claimed' && !options.partial && !approved.has(entry.body.id)
        ? `request ${String(entry.body.id)} was claimed, but no signed approval of it is in the record`
        : entry.kind === 'approval.claimed' && !options.partial && quorum > 1 && (voters.get(entry.body.id)?.size ?? 0) < quorum
          ? `request ${String(entry.body.id)} needs ${quorum} approvals and was claimed with ${voters.get(entry.body.id)?.size ?? 0} signed in the record`
          : undefined;
    if (why !== undefined)
      return {
        writer: entry.writer,
        seq: entry.seq,
        index,
        reason: 'approval_signature',
        message: `entry ${entry.seq} of ${entry.writer}: ${why}`,
      };
  }
  return undefined;
}

/** Why an `approval.decided` body's signature does not hold with `keys`, or undefined when it does. */
export function approvalProblem(body: ChainEntry['body'], keys: SignerKeys): string | undefined {
  const { id, call_id, status, decided_by, decided_at, signed_content, signature } = body;
  if (typeof signed_content !== 'string' || typeof signature !== 'string' || typeof decided_by !== 'string')
    return 'the approval states no signature';
  const proof = proofOfBody(body);
  const unsigned =
    proof === undefined
      ? custodialProblem(keys, decided_by, signed_content, signature)
      : heldKeyProblem(keys, decided_by, signed_content, signature, proof);
  if (unsigned !== undefined) return unsigned;
  const read = readJsonText(signed_content, { maxLength: 64 * 1024, maxDepth: 4 });
  const content = read.ok && read.diagnostics.length === 0 ? (read.value as Record<string, unknown>) : undefined;
  if (
    content === undefined ||
    content.id !== id ||
    content.call_id !== call_id ||
    content.decision !== status ||
    content.decided_by !== decided_by ||
    content.decided_at !== decided_at
  )
    return 'what the member signed is not this decision of this request';
  return undefined;
}

function custodialProblem(keys: SignerKeys, member: string, content: string, signature: string): string | undefined {
  const key = keys.members.get(member);
  if (!key) return `no public key for member ${member}, who signed the approval`;
  let signed = false;
  try {
    signed = verify(null, Buffer.from(content, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    signed = false;
  }
  return signed ? undefined : `the approval is not signed by member ${member}`;
}

/** A proof by a key the member holds: a credential of theirs, named by the export, over this content. */
function heldKeyProblem(
  keys: SignerKeys,
  member: string,
  content: string,
  signature: string,
  proof: StoredProof | 'unreadable',
): string | undefined {
  if (proof === 'unreadable') return "the approval's proof does not read";
  const credential = keys.credentials.get(proof.credential_id);
  if (!credential) return `no public key for credential ${proof.credential_id}, which signed the approval`;
  if (credential.member !== member || credential.kind !== proof.kind) {
    return `credential ${proof.credential_id} is not a ${proof.kind} of member ${member}`;
  }
  if (proof.signature !== signature) return "the approval's signature is not its proof's";
  const check =
    proof.kind === 'passkey'
      ? checkPasskeyProof(proof, content, credential.key, credential.rp_id ?? '')
      : checkDeviceProof(proof, content, credential.key);
  return check.ok ? undefined : `the approval's ${proof.kind} proof does not hold: ${check.message}`;
}
