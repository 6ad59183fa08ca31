// What a settings edit widens: a longer default approval lifetime, the approved-only switch, the member-held
// keys requirement or four eyes on widening edits turned off,
// rule sets approved, observe windows added, lengthened or relaxing more.
import { DEFAULT_SETTINGS, readSettings, type Settings } from './settings.ts';
import type { Impact } from './types.ts';
import { impactOf } from './types.ts';
import { parseDateTime } from './values.ts';

/**
 * Compares new settings with the running ones; with none running, with the defaults (DEFAULT_SETTINGS).
 *
 * @example
 * analyzeSettingsImpact('approval_ttl_seconds: 3600\napproved_rulesets_only: true\n', 'approval_ttl_seconds: 7200\napproved_rulesets_only: true\n')
 * // { widensSecurity: true, widenedSubjects: ['approval_ttl_seconds 3600 -> 7200'] }
 */
export function analyzeSettingsImpact(runningText: string | undefined, newText: string): Impact {
  const after = readSettings(newText);
  if (!after.ok) return impactOf([]);
  // The running text may be from before the approved list named versions: read it as the gate does.
  const before = runningText === undefined ? undefined : readSettings(runningText, undefined, { stored: true });
  return impactOf(settingsSubjects(before?.ok ? before.settings : DEFAULT_SETTINGS, after.settings));
}

/**
 * Every widening from one settings file to another.
 *
 * @example
 * settingsSubjects(DEFAULT_SETTINGS, { ...DEFAULT_SETTINGS, approval_ttl_seconds: 172800 }) // ['approval_ttl_seconds 86400 -> 172800']
 */
export function settingsSubjects(before: Settings, after: Settings): string[] {
  const out: string[] = [];
  if (after.approval_ttl_seconds > before.approval_ttl_seconds) {
    out.push(`approval_ttl_seconds ${before.approval_ttl_seconds} -> ${after.approval_ttl_seconds}`);
  }
  if (before.approved_rulesets_only && !after.approved_rulesets_only) out.push('approved_rulesets_only true -> false');
  // Custodial signatures count again, and members without a key of their own approve again.
  if (before.approvals_require_member_keys && !after.approvals_require_member_keys) out.push('approvals_require_member_keys true -> false');
  // One person's widening edit runs again without a second person's activation.
  if (before.review_widening_edits && !after.review_widening_edits) out.push('review_widening_edits true -> false');
  if (before.approved_rulesets_only && after.approved_rulesets_only) {
    for (const id of after.approved_rulesets) if (!before.approved_rulesets.includes(id)) out.push(`approved_rulesets + ${id}`);
  }
  const old = new Map(before.observe_windows.map((w) => [w.name, w]));
  for (const window of after.observe_windows) {
    const prefix = `observe_windows/${window.name}`;
    const was = old.get(window.name);
    if (!was) {
      out.push(`${prefix} added`);
      continue;
    }
    if (time(window.starts) < time(was.starts)) out.push(`${prefix} starts ${was.starts} -> ${window.starts}`);
    if (time(window.ends) > time(was.ends)) out.push(`${prefix} ends ${was.ends} -> ${window.ends}`);
    if (was.relax === 'approvals' && window.relax === 'denials') out.push(`${prefix} relax approvals -> denials`);
  }
  return out;
}

function time(text: string): number {
  return parseDateTime(text) ?? 0;
}
