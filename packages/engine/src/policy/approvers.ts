// Who may approve a held call, resolved at decision time (docs/policy.md, "Approvers").
import { APPROVER_ROLES, type Approvers, type Member } from './types.ts';

export const MAX_ELIGIBLE_APPROVERS = 32;

/** The default's approvers: every owner, admin and approver. */
export const DEFAULT_APPROVERS: Approvers = { roles: [...APPROVER_ROLES] };

/**
 * The eligible people: a role able to approve, an active signing identity, a person's key (a member whose
 * keys are all a model's never approves), and a listed role or ID. A listed user who has since become a
 * developer or viewer, or has only a model's keys, is simply not eligible.
 */
export function eligibleApprovers(approvers: Approvers, members: readonly Member[]): string[] {
  const roles = new Set<string>(approvers.roles ?? []);
  const users = new Set<string>(approvers.users ?? []);
  const out: string[] = [];
  for (const m of members) {
    if (!m.signing || m.model === true || !(APPROVER_ROLES as readonly string[]).includes(m.role)) continue;
    if (roles.has(m.role) || users.has(m.id)) out.push(m.id);
  }
  return out;
}
