// Each approval the record holds checked against the member who signed it (docs/audit.md): an `approval.decided`
// entry states what the member signed and the signature, and an export names each signer's public key (a member
// line). The signature must verify with that key, and what was signed must be this decision of this request.
import { createPublicKey, type KeyObject, verify } from 'node:crypto';
import { readJsonText } from '@tollgate/engine/source';
import type { ChainEntry, RecordBreak } from './chain.ts';

/** The signers' public keys, by member id, from PEM text; a key that does not read is left out (and so fails). */
export function memberKeysOf(lines: readonly { member: string; public_key: string }[]): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const { member, public_key } of lines) {
    try {
      const key = createPublicKey(public_key);
      if (key.asymmetricKeyType === 'ed25519') keys.set(member, key);
    } catch {
      // Left out: the approvals it signed then fail as signed by no known key.
    }
  }
  return keys;
}

/**
 * The first approval entry whose member signature does not hold, or a claim of a request no signed approval in the
 * record approved (a request set to approved in the database, bypassing the members, is claimed like any other);
 * undefined when every one holds. A part of a record (`partial`) may hold a claim without its approval: only the
 * signatures there are checked.
 */
export function firstBadApproval(
  entries: readonly ChainEntry[],
  members: ReadonlyMap<string, KeyObject>,
  options: { partial?: boolean } = {},
): RecordBreak | undefined {
  const approved = new Set<unknown>();
  for (const entry of entries) if (entry.kind === 'approval.decided' && entry.body.status === 'approved') approved.add(entry.body.id);
  for (const [index, entry] of entries.entries()) {
    const why =
      entry.kind === 'approval.decided'
        ? approvalProblem(entry.body, members)
        : entry.kind === 'approval.claimed' && !options.partial && !approved.has(entry.body.id)
          ? `request ${String(entry.body.id)} was claimed, but no signed approval of it is in the record`
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

function approvalProblem(body: ChainEntry['body'], members: ReadonlyMap<string, KeyObject>): string | undefined {
  const { id, call_id, status, decided_by, decided_at, signed_content, signature } = body;
  if (typeof signed_content !== 'string' || typeof signature !== 'string' || typeof decided_by !== 'string')
    return 'the approval states no signature';
  const key = members.get(decided_by);
  if (!key) return `no public key for member ${decided_by}, who signed the approval`;
  let signed = false;
  try {
    signed = verify(null, Buffer.from(signed_content, 'utf8'), key, Buffer.from(signature, 'base64'));
  } catch {
    signed = false;
  }
  if (!signed) return `the approval is not signed by member ${decided_by}`;
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
