// The people of an approval request by name: who may decide it now and who decided it, so the console can
// name them (docs/console.md, "Approvals inbox"). Only ids and names leave here, never a member's keys.
import { APPROVER_ROLES } from '@tollgate/engine';
import type { ApprovalRow } from '../state/approvals/model.ts';
import type { MemberRow } from '../state/members/model.ts';
import { readStoredJson } from '../state/stored-json.ts';

/** A member as an approval names them. */
export interface NamedMember {
  id: string;
  name: string;
}

/** The member ids the request was held for (stored as JSON by the gate); a list that does not read names no one. */
export function listedApprovers(row: ApprovalRow): string[] {
  const list = readStoredJson(row.approvers);
  return Array.isArray(list) ? list.filter((id): id is string => typeof id === 'string') : [];
}

/** Whether the member may decide the request: listed as eligible, still a member of a role that approves, and signing. */
export function isEligible(member: Pick<MemberRow, 'id' | 'role' | 'signing' | 'removed_at'>, row: ApprovalRow): boolean {
  return (
    listedApprovers(row).includes(member.id) &&
    member.removed_at === null &&
    (APPROVER_ROLES as readonly string[]).includes(member.role) &&
    member.signing === 1
  );
}

/**
 * The listed approvers who may decide the request now (as `isEligible` judges them), by name, in the order
 * the gate listed them. Example: `eligibleApprovers(row, byId)` is `[{id: 'm1', name: 'april'}]`.
 */
export function eligibleApprovers(row: ApprovalRow, membersById: ReadonlyMap<string, MemberRow>): NamedMember[] {
  const named: NamedMember[] = [];
  for (const id of listedApprovers(row)) {
    const member = membersById.get(id);
    if (member && isEligible(member, row)) named.push({ id: member.id, name: member.name });
  }
  return named;
}

/** The name of the member who decided the request, or null when undecided (or the member is gone). */
export function deciderName(row: ApprovalRow, membersById: ReadonlyMap<string, MemberRow>): string | null {
  return row.decided_by === null ? null : (membersById.get(row.decided_by)?.name ?? null);
}

/** Members by id, for naming the people of many requests with one read. */
export function membersById(members: readonly MemberRow[]): Map<string, MemberRow> {
  return new Map(members.map((m) => [m.id, m]));
}
