// What each member role may do, in one place: the console offers an action only to the roles the API takes it
// from (docs/api.md; the API checks again and answers ROLE_REQUIRED). Every page asks these, never a role list.
import type { components } from './api/schema';

export type Role = components['schemas']['Me']['role'];

type MaybeRole = Role | string | null | undefined;

const has = (roles: readonly Role[]) => (role: MaybeRole) => (roles as readonly string[]).includes(role ?? '');

/** Save edits through the edit seam, create documents from templates, update a rule set's pins. Example: `canEdit('developer')` is true. */
export const canEdit = has(['owner', 'admin', 'developer']);

/** Activate and revert a document's versions; steward a rule set (status, active version, archive, restore). Example: `canActivate('developer')` is false. */
export const canActivate = has(['owner', 'admin']);

/** Authorize a catalogue tool's binding (docs/catalogue.md). */
export const canAuthorize = has(['owner', 'admin']);

/** Ask every upstream MCP server for its tools now (POST /v1/upstreams/refresh, docs/mcp.md). */
export const canRefreshUpstreams = has(['owner', 'admin']);

/** Start and stop a policy's trial on live calls (POST /v1/trials, docs/review.md, "Trials on live calls"). */
export const canRunTrials = has(['owner', 'admin']);

/** Read recorded arguments (GET /v1/decisions?with_arguments=true). */
export const canReadArguments = has(['owner', 'admin']);

/** Approve or deny held calls, when listed as an eligible approver of the request. Example: `canApprove('viewer')` is false. */
export const canApprove = has(['owner', 'admin', 'approver']);

/** Add, re-role and remove members; make keys for anyone, and see every key (docs/console.md, "Members and keys"). */
export const canManageMembers = has(['owner', 'admin']);
