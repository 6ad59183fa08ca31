// Deciding a held call (docs/approver-keys.md): the content an approver signs, and a decision checked before it
// counts, signed by a key the member holds (a passkey's assertion, a device key's signature) or, unless the settings
// require member-held keys, by the server with the member's custodial key. Each fault is refused with its own code
// and nothing is written; a passkey's counter moves in the decision's transaction.
import { createHash } from 'node:crypto';
import type { AuthenticationResponseJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { readJsonText } from '@tollgate/engine/source';
import type { AppContext } from '../context.ts';
import { ApiError } from '../errors.ts';
import { isEligible } from '../routes/approval-people.ts';
import { type ApprovalRow, type CounterMove, type DecisionWrite, signedContentOf, statusOf } from '../state/approvals/model.ts';
import { custodialDecision } from '../state/approvals/signed-decision.ts';
import type { CredentialRow } from '../state/members/credential-model.ts';
import type { MemberRow } from '../state/members/model.ts';
import { memberKeysRequired } from './member-keys-setting.ts';
import { assertionOptions, assertionVerifies, type RelyingParty } from './passkeys.ts';
import { challengeOf, checkDeviceProof, checkPasskeyProof, type ProofCheck, publicKeyOf, type StoredProof } from './proof.ts';

/** How far a signed decided_at may be from the server's time: the challenge's life. */
export const PROOF_WINDOW_MS = 5 * 60_000;

export type Decision = 'approved' | 'denied';

/** A proof as a decision's body sends it (routes/approvals.ts): a passkey's whole assertion, or a device signature. */
export type ProofBody =
  | { kind: 'passkey'; credential_id: string; response: AuthenticationResponseJSON }
  | { kind: 'device'; credential_id: string; signature: string };

export interface DecisionChallenge {
  content: string;
  challenge: string;
  decided_at: string;
  expires_at: string;
  passkey: PublicKeyCredentialRequestOptionsJSON | null;
}

/** The digest of the text of the policy version that held the call, as the signed content states it. */
async function policyDigestOf(ctx: AppContext, row: ApprovalRow): Promise<string | undefined> {
  const version = await ctx.store.getVersion(row.policy_document, row.policy_sequence).catch(() => undefined);
  return version ? `sha256:${createHash('sha256').update(version.text, 'utf8').digest('hex')}` : undefined;
}

/** The request, when `member` may decide it now: found, eligible, pending and unexpired. */
async function decidable(ctx: AppContext, member: MemberRow, id: string): Promise<ApprovalRow> {
  const row = await ctx.state.findApproval(id);
  if (!row) throw new ApiError('NOT_FOUND', `no approval request ${id}`, { resource: 'approval' });
  if (!isEligible(member, row)) throw new ApiError('NOT_ELIGIBLE', 'you are not an eligible approver of this request');
  const status = statusOf(row, ctx.now());
  if (status === 'expired') throw new ApiError('APPROVAL_EXPIRED', 'the request has expired and can no longer be decided');
  if (status !== 'pending') throw new ApiError('ALREADY_DECIDED', 'the request has been decided already');
  return row;
}

/**
 * The content `member` signs to decide request `id` now, its challenge, and the member's passkeys as WebAuthn request
 * options (null when they hold none on this relying party).
 */
export async function decisionChallenge(
  ctx: AppContext,
  member: MemberRow,
  id: string,
  decision: Decision,
  rp: RelyingParty,
): Promise<DecisionChallenge> {
  const row = await decidable(ctx, member, id);
  const now = ctx.now();
  const content = signedContentOf(row, decision, member.id, now.toISOString(), await policyDigestOf(ctx, row));
  const challenge = challengeOf(content);
  const held = await ctx.state.identity.listCredentials(member.id);
  return {
    content,
    challenge,
    decided_at: now.toISOString(),
    expires_at: new Date(now.getTime() + PROOF_WINDOW_MS).toISOString(),
    passkey: await assertionOptions(held, rp, challenge),
  };
}

export interface DecideInput {
  decision: Decision;
  reason: string | null;
  signed: { content: string; proof: ProofBody } | undefined;
  rp: RelyingParty;
}

/** Decides request `id` as `member`; the decided request, or an ApiError naming why nothing counted. */
export async function decideHeldCall(ctx: AppContext, member: MemberRow, id: string, input: DecideInput): Promise<ApprovalRow> {
  const now = ctx.now();
  const found = await ctx.state.findApproval(id);
  // A proof that decided the request once is named as replayed, before anything else is judged.
  if (found && input.signed && found.signature !== null && found.signature === signatureOf(input.signed.proof)) {
    throw new ApiError('PROOF_REPLAYED', 'this proof decided the request already');
  }
  const row = await decidable(ctx, member, id);
  let write: DecisionWrite;
  let counter: CounterMove | undefined;
  if (input.signed === undefined) {
    if (await memberKeysRequired(ctx)) {
      throw new ApiError('PROOF_REQUIRED', 'the settings require a decision signed with your passkey or device key');
    }
    const key = ctx.state.custodial.open(member.private_key);
    write = custodialDecision(row, member.id, key, input.decision, input.reason, now, await policyDigestOf(ctx, row));
  } else {
    ({ write, counter } = await checkedDecision(ctx, member, row, input, now));
  }
  const outcome = await ctx.state.decideApproval(id, write, now, counter);
  if (outcome.ok) return outcome.row;
  if (outcome.reason === 'expired') throw new ApiError('APPROVAL_EXPIRED', 'the request has expired and can no longer be decided');
  if (outcome.reason === 'already_decided') throw new ApiError('ALREADY_DECIDED', 'the request has been decided already');
  if (outcome.reason === 'already_voted') throw new ApiError('ALREADY_VOTED', 'you decided this request already; it needs other approvers');
  if (outcome.reason === 'counter_moved') {
    const credential = counter && (await ctx.state.identity.findCredential(counter.credential));
    if (credential?.revoked_at) throw new ApiError('CREDENTIAL_REVOKED', 'the passkey was revoked');
    throw new ApiError('PASSKEY_COUNTER_REGRESSED', "the passkey's counter moved past this assertion's");
  }
  throw new ApiError('NOT_FOUND', `no approval request ${id}`, { resource: 'approval' });
}

function signatureOf(proof: ProofBody): string {
  return proof.kind === 'device' ? proof.signature : proof.response.response.signature;
}

/** A member-signed decision checked in full: the content, its time, the credential, the signature, the counter. */
async function checkedDecision(
  ctx: AppContext,
  member: MemberRow,
  row: ApprovalRow,
  input: DecideInput,
  now: Date,
): Promise<{ write: DecisionWrite; counter: CounterMove | undefined }> {
  const { content, proof } = input.signed as { content: string; proof: ProofBody };
  const decidedAt = decidedAtOf(content);
  const expected =
    decidedAt === undefined ? undefined : signedContentOf(row, input.decision, member.id, decidedAt, await policyDigestOf(ctx, row));
  if (decidedAt === undefined || content !== expected) {
    throw new ApiError('PROOF_CONTENT_MISMATCH', 'what was signed is not this decision of this request by you; ask for a new challenge');
  }
  if (Math.abs(now.getTime() - Date.parse(decidedAt)) > PROOF_WINDOW_MS) {
    throw new ApiError('PROOF_STALE', 'the signed content is more than 5 minutes old; ask for a new challenge');
  }
  const credential = await ownCredential(ctx, member, proof);
  const key = publicKeyOf(credential.public_key);
  if (!key) throw new ApiError('PROOF_INVALID', `the credential ${credential.id} holds no key that reads`);
  let stored: StoredProof;
  let check: ProofCheck;
  if (proof.kind === 'device') {
    stored = { kind: 'device', credential_id: credential.id, signature: proof.signature };
    check = checkDeviceProof(stored, content, key);
  } else {
    const r = proof.response.response;
    stored = {
      kind: 'passkey',
      credential_id: credential.id,
      authenticator_data: r.authenticatorData,
      client_data_json: r.clientDataJSON,
      signature: r.signature,
    };
    check = checkPasskeyProof(stored, content, key, credential.rp_id ?? '');
  }
  if (!check.ok) {
    if (check.fault === 'content') throw new ApiError('PROOF_CONTENT_MISMATCH', check.message);
    if (check.fault === 'user_not_verified') throw new ApiError('PASSKEY_USER_NOT_VERIFIED', check.message);
    throw new ApiError('PROOF_INVALID', check.message);
  }
  let counter: CounterMove | undefined;
  if (proof.kind === 'passkey') {
    if ((check.counter > 0 || credential.counter > 0) && check.counter <= credential.counter) {
      throw new ApiError(
        'PASSKEY_COUNTER_REGRESSED',
        `the passkey's counter ${check.counter} is not above ${credential.counter}, the last seen`,
      );
    }
    if (!(await assertionVerifies(proof.response, credential, input.rp, challengeOf(content)))) {
      throw new ApiError('PROOF_INVALID', `the assertion does not verify on this relying party's origin (${input.rp.id})`);
    }
    if (check.counter > 0) counter = { credential: credential.id, counter: check.counter };
  }
  return {
    write: {
      status: input.decision,
      decided_by: member.id,
      decided_at: decidedAt,
      reason: input.reason,
      signature: stored.signature,
      signed_content: content,
      proof: JSON.stringify(stored),
    },
    counter,
  };
}

/** The credential a proof names, when it is the member's own, of the proof's kind, and not revoked. */
async function ownCredential(ctx: AppContext, member: MemberRow, proof: ProofBody): Promise<CredentialRow> {
  const named = proof.kind === 'passkey' ? proof.response.id : proof.credential_id;
  if (proof.kind === 'passkey' && named !== proof.credential_id) {
    throw new ApiError('PROOF_INVALID', 'the assertion is by another credential than the one named');
  }
  const credential = await ctx.state.identity.findCredential(named);
  if (!credential || credential.kind !== proof.kind) throw new ApiError('PROOF_INVALID', `no ${proof.kind} credential ${named}`);
  if (credential.member_id !== member.id) throw new ApiError('CREDENTIAL_NOT_OWN', `the credential ${named} is another member's`);
  if (credential.revoked_at !== null)
    throw new ApiError('CREDENTIAL_REVOKED', `the credential ${named} was revoked at ${credential.revoked_at}`);
  return credential;
}

/** The decided_at a signed content states, or undefined when the content is not a JSON object that states one. */
function decidedAtOf(content: string): string | undefined {
  const read = readJsonText(content, { maxLength: 64 * 1024, maxDepth: 4 });
  if (!read.ok || read.diagnostics.length > 0) return undefined;
  const value = read.value as Record<string, unknown> | null;
  const at = value !== null && typeof value === 'object' ? value.decided_at : undefined;
  return typeof at === 'string' && !Number.isNaN(Date.parse(at)) ? at : undefined;
}
