// What a member's role may do to a rule set: pins and metadata for those who edit, status, the active version,
// archive and restore for those who activate (lib/capabilities.ts).
import { canActivate, canEdit } from '../../lib/capabilities.ts';
import type { RuleStatus, Ruleset } from './api/types.ts';

export interface RulesetPermissions {
  /** Update to latest (saves a draft version). */
  canRepin: boolean;
  /** Status changes, making a version active, archive and restore. */
  canSteward: boolean;
}

/** Example: `permissionsOf('developer')` is `{canRepin: true, canSteward: false}`. */
export function permissionsOf(role: string | null | undefined): RulesetPermissions {
  return { canRepin: canEdit(role), canSteward: canActivate(role) };
}

/** The statuses offered as changes: every lifecycle status but the current one; archiving has its own step. */
export function statusChoices(current: RuleStatus): Exclude<RuleStatus, 'archived'>[] {
  if (current === 'archived') return [];
  return (['draft', 'test', 'active', 'disabled'] as const).filter((s) => s !== current);
}

/** Whether the shown version is one that could be made the set's active version. */
export function canBecomeActive(set: Ruleset): boolean {
  return set.status !== 'archived' && set.active_version !== set.version_id;
}
