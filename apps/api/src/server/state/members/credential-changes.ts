// Enrolling and revoking the keys members hold (docs/approver-keys.md) as plans, judged like every change to
// members and keys (changes.ts): a member manages their own; an owner or admin may revoke anyone's (a lost laptop),
// never enroll one for someone else, since the key must be the member's. Each change is recorded with the key's
// public half, so the record alone names the key that signed an approval.
import { type Plan, record } from './changes.ts';
import { type CredentialRow, MAX_CREDENTIALS_PER_MEMBER } from './credential-model.ts';
import type { Actor, Refusal } from './lifecycle.ts';
import type { MemberRow } from './model.ts';

/** Enrolls `fresh` for `member`, given the member's credentials now and whether its id is taken already. */
export function planEnrollment(
  actor: Actor,
  member: MemberRow,
  fresh: CredentialRow,
  held: readonly CredentialRow[],
  taken: boolean,
  now: Date,
): Plan {
  if (actor.kind === 'member' && actor.member.id !== member.id) {
    return { refusal: { code: 'ROLE_REQUIRED', message: 'a member enrolls only keys of their own' } };
  }
  if (taken) return { refusal: { code: 'CREDENTIAL_EXISTS', message: `the credential ${fresh.id} is enrolled already` } };
  if (held.filter((c) => c.revoked_at === null).length >= MAX_CREDENTIALS_PER_MEMBER) {
    return {
      refusal: {
        code: 'TOO_MANY_CREDENTIALS',
        message: `a member holds at most ${MAX_CREDENTIALS_PER_MEMBER} active credentials; revoke one first`,
      },
    };
  }
  const details = {
    id: fresh.id,
    kind: fresh.kind,
    algorithm: fresh.algorithm,
    public_key: fresh.public_key,
    rp_id: fresh.rp_id,
    label: fresh.label,
  };
  return { writes: [{ kind: 'insert_credential', row: fresh }, record(actor, now, 'credential.enrolled', member.name, details)] };
}

/** Revokes `credential` of `member`: the member themself, an owner or an admin (or the operator). */
export function planCredentialRevocation(actor: Actor, member: MemberRow, credential: CredentialRow, now: Date): Plan {
  const refusal = refuseRevocation(actor, member);
  if (refusal) return { refusal };
  if (credential.revoked_at !== null) return { writes: [] };
  return {
    writes: [
      { kind: 'revoke_credential', id: credential.id, at: now.toISOString() },
      record(actor, now, 'credential.revoked', member.name, { id: credential.id, kind: credential.kind }),
    ],
  };
}

function refuseRevocation(actor: Actor, member: MemberRow): Refusal | undefined {
  if (actor.kind !== 'member' || actor.member.id === member.id) return undefined;
  if (actor.member.role === 'owner' || actor.member.role === 'admin') return undefined;
  return { code: 'ROLE_REQUIRED', message: "revoking another member's key needs the role owner or admin" };
}
