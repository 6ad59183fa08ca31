// The members as rules judge approvers (docs/policy.md, "Approvers"), for both state stores: a member whose
// keys are all a model's (the `model` grant) is marked `model`, since a model never approves a held call
// (route-kit.ts, people()), so it is never counted or listed among the eligible approvers.
import type { Member } from '@tollgate/engine';
import type { MemberRow } from './members.ts';
import { readStoredJson } from './stored-json.ts';

/** A member key's row as both stores keep it: its member (null for an agent's key) and its grants as JSON. */
export interface MemberKeyRow {
  member_id: string | null;
  grants: string;
}

/** The ids of the members with at least one key, every one of them a model's. */
export function modelOnlyMembers(keys: readonly MemberKeyRow[]): Set<string> {
  const person = new Set<string>();
  const model = new Set<string>();
  for (const key of keys) {
    if (key.member_id === null) continue;
    // Read as principalOf reads it: grants that do not read grant nothing, so the key is a person's.
    const grants = readStoredJson(key.grants);
    (Array.isArray(grants) && grants.includes('model') ? model : person).add(key.member_id);
  }
  return new Set([...model].filter((id) => !person.has(id)));
}

/**
 * The members as the engine judges approvers.
 *
 * @example
 * judgedMembers(rows, modelOnlyMembers(keys)) // [{ id, role, signing: true }, { id, role, signing: true, model: true }]
 */
export function judgedMembers(rows: readonly MemberRow[], modelOnly: ReadonlySet<string>): Member[] {
  return rows.map((m) => ({ id: m.id, role: m.role, signing: m.signing === 1, ...(modelOnly.has(m.id) ? { model: true } : {}) }));
}
