// What a pin shows: the version pinned, the version in use and the "newer version" badge (docs/rulesets.md,
// "Pins are resolved when a version is made").
import type { RulesetPin } from './api/types.ts';

/**
 * The version pinned. A pin without one is from a version stored before pins were resolved: it runs nothing
 * (docs/rulesets.md). Example: `pinnedLabel({version_id: null, ...})` is `'no version'`.
 */
export function pinnedLabel(pin: RulesetPin): string {
  return pin.version_id === null ? 'no version' : `version ${pin.version_id}`;
}

/** The version that runs for the pin; one without a version runs nothing until updated to latest. */
export function inUseLabel(pin: RulesetPin): string {
  return pin.used_version === null ? 'none: update to latest' : `version ${pin.used_version}`;
}

/** The badge for a pin behind its rule's running version, or null. Example: `'newer version 2'`. */
export function newerBadge(pin: RulesetPin): string | null {
  if (!pin.newer || pin.running_version === null) return null;
  return `newer version ${pin.running_version}`;
}

/** The list's count of pins behind, or null when none is. Example: `newerCountLabel(1)` is `'1 newer version'`. */
export function newerCountLabel(count: number): string | null {
  if (count <= 0) return null;
  return count === 1 ? '1 newer version' : `${count} newer versions`;
}
