// The wire types of members and keys, from the generated schema (GET /v1/openapi.json), and the role and grant
// lists the forms offer, checked against it.
import type { components } from '../../../lib/api/schema';

export type Member = components['schemas']['Member'];
export type Key = components['schemas']['Key'];
export type NewKey = components['schemas']['NewKey'];
export type IdentityChange = components['schemas']['IdentityChange'];
/** A member's signing credential: custodial, passkey or device key (docs/approver-keys.md). */
export type Credential = components['schemas']['MemberCredential'];
export type Role = Member['role'];
export type Grant = Key['grants'][number];

type Exactly<List extends readonly string[], Union extends string> = [Union] extends [List[number]] ? List : never;

/** Every role, most to least able, as the role selects offer them (the type refuses a list missing one). */
export const ROLES = ['owner', 'admin', 'approver', 'developer', 'viewer'] as const satisfies readonly Role[];
export const ALL_ROLES: Exactly<typeof ROLES, Role> = ROLES;

/** Every grant a key may hold (docs/security.md). */
export const GRANTS = ['catalogue', 'model', 'metrics'] as const satisfies readonly Grant[];
export const ALL_GRANTS: Exactly<typeof GRANTS, Grant> = GRANTS;
