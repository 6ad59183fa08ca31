// The settings file (settings.yaml): the default approval lifetime, observe windows, the approved-only
// rule sets switch, whether approvals need member-held keys and whether widening edits wait for a second person, read strictly with every problem's path and line (docs/documents.md, "Settings").
import { problem } from '../conditions/family.ts';
import { DEFAULT_APPROVAL_TTL_SECONDS } from '../policy/evaluate.ts';
import { MAX_TTL_SECONDS, MIN_TTL_SECONDS } from '../policy/validate.ts';
import type { Diagnostic } from '../source/diagnostic.ts';
import { placeProblems } from '../source/place-problems.ts';
import { readYamlText } from '../source/yaml-text.ts';
import { checkMembers, isRecord, type ReferenceContext, readChoice, readDateTime, readList, readReference } from './values.ts';

export const RELAXES = ['approvals', 'denials'] as const;

/**
 * A time during which decisions are recorded but relaxed: `approvals` lets calls that need approval run;
 * `denials` also lets denied calls run. Guard rules, INVALID_AMOUNT and approver-count denials never relax.
 */
export interface ObserveWindow {
  name: string;
  /** ISO 8601 date-times with offsets, as written. */
  starts: string;
  ends: string;
  relax: (typeof RELAXES)[number];
}

export interface Settings {
  approval_ttl_seconds: number;
  observe_windows: ObserveWindow[];
  approved_rulesets_only: boolean;
  approved_rulesets: string[];
  /**
   * Only a decision a member signed with a key they hold (a passkey or a device key) counts, and only members holding
   * one are eligible approvers (docs/approver-keys.md). False when absent.
   */
  approvals_require_member_keys: boolean;
  /**
   * Four eyes: an edit that widens what runs is stored as a version that does not run, and its author may not
   * activate it (docs/security.md, "Four eyes"). False when absent, so edits apply by default.
   */
  review_widening_edits: boolean;
}

export type SettingsResult = { ok: true; settings: Settings; problems: [] } | { ok: false; problems: Diagnostic[] };

/** What holds when there is no settings file: the baseline an impact analysis compares a first one with. */
export const DEFAULT_SETTINGS: Settings = {
  approval_ttl_seconds: DEFAULT_APPROVAL_TTL_SECONDS,
  observe_windows: [],
  approved_rulesets_only: false,
  approved_rulesets: [],
  approvals_require_member_keys: false,
  review_widening_edits: false,
};

export const MAX_OBSERVE_WINDOWS = 32;
export const MAX_APPROVED_RULESETS = 1000;
const WINDOW_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const MEMBERS = [
  'approval_ttl_seconds',
  'observe_windows',
  'approved_rulesets_only',
  'approved_rulesets',
  'approvals_require_member_keys',
  'review_widening_edits',
];
const WINDOW_MEMBERS = ['name', 'starts', 'ends', 'relax'];

export interface ReadSettingsOptions {
  /**
   * The text is a stored version that runs (the gate reading it), not a new one: an approved entry without a
   * version, from before the list named versions, is read rather than refused, and approves nothing.
   */
  stored?: boolean;
}

/**
 * Reads the settings file from its YAML text, defaults filled in. With a store to ask, every approved
 * rule set version must exist.
 *
 * @example
 * readSettings('approval_ttl_seconds: 3600\napproved_rulesets_only: false\n')
 * // { ok: true, settings: { approval_ttl_seconds: 3600, observe_windows: [], approved_rulesets_only: false, approved_rulesets: [] }, problems: [] }
 */
export function readSettings(text: string, context?: ReferenceContext, options: ReadSettingsOptions = {}): SettingsResult {
  const read = readYamlText(text);
  if (!read.ok) return { ok: false, problems: [{ ...read.diagnostic, path: '' }] };
  const problems = [...read.diagnostics];
  const settings = validateSettings(read.value, problems, context, options);
  if (settings !== undefined && problems.length === 0) return { ok: true, settings, problems: [] };
  return { ok: false, problems: placeProblems(problems, read.rangeOf) };
}

/**
 * Validates settings already read into plain values; pushes every problem with its path.
 *
 * @example
 * validateSettings({ approval_ttl_seconds: 30, approved_rulesets_only: false }, problems) // undefined; INVALID_TTL
 */
export function validateSettings(
  value: unknown,
  problems: Diagnostic[],
  context?: ReferenceContext,
  options: ReadSettingsOptions = {},
): Settings | undefined {
  const before = problems.length;
  if (!isRecord(value)) {
    problems.push(
      problem('INVALID_TYPE', '', 'settings are a mapping: approval_ttl_seconds, observe_windows, approved_rulesets_only, ...'),
    );
    return undefined;
  }
  checkMembers(value, '', MEMBERS, problems);
  const ttl = value.approval_ttl_seconds ?? DEFAULT_APPROVAL_TTL_SECONDS;
  if (!(typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= MIN_TTL_SECONDS && ttl <= MAX_TTL_SECONDS)) {
    problems.push(
      problem('INVALID_TTL', '/approval_ttl_seconds', `a whole number of seconds from ${MIN_TTL_SECONDS} to ${MAX_TTL_SECONDS} (30 days)`),
    );
  }
  const windows =
    value.observe_windows === undefined
      ? []
      : readList(value.observe_windows, '/observe_windows', MAX_OBSERVE_WINDOWS, problems, (raw, at) => readWindow(raw, at, problems));
  const only = value.approved_rulesets_only;
  if (only === undefined) {
    problems.push(problem('MISSING_MEMBER', '', 'add approved_rulesets_only: true (only approved rule sets run) or false'));
  } else if (typeof only !== 'boolean') {
    problems.push(problem('INVALID_TYPE', '/approved_rulesets_only', 'approved_rulesets_only is true or false'));
  }
  const approved =
    value.approved_rulesets === undefined
      ? []
      : readList(value.approved_rulesets, '/approved_rulesets', MAX_APPROVED_RULESETS, problems, (entry, at) =>
          readApproved(entry, at, problems, context, options.stored === true),
        );
  const memberKeys = value.approvals_require_member_keys ?? false;
  if (typeof memberKeys !== 'boolean') {
    problems.push(problem('INVALID_TYPE', '/approvals_require_member_keys', 'approvals_require_member_keys is true or false'));
  }
  const fourEyes = value.review_widening_edits ?? false;
  if (typeof fourEyes !== 'boolean') {
    problems.push(problem('INVALID_TYPE', '/review_widening_edits', 'review_widening_edits is true or false'));
  }
  if (
    problems.length !== before ||
    windows === undefined ||
    approved === undefined ||
    typeof only !== 'boolean' ||
    typeof memberKeys !== 'boolean' ||
    typeof fourEyes !== 'boolean'
  )
    return undefined;
  return {
    approval_ttl_seconds: ttl as number,
    observe_windows: windows,
    approved_rulesets_only: only,
    approved_rulesets: approved,
    approvals_require_member_keys: memberKeys,
    review_widening_edits: fourEyes,
  };
}

/**
 * One approved entry: `id@N`, version N of a rule set. The list approves set versions, so a version saved
 * later runs only once someone approves it too (docs/rulesets.md).
 * With a store to ask, the set and the version must exist. A bare id is refused (VERSION_REQUIRED),
 * except when reading a stored file (`stored`): it ran before the list named versions, so it still loads, and
 * its bare ids approve no version (`isApprovedVersion`), failing closed.
 */
function readApproved(
  entry: unknown,
  at: string,
  problems: Diagnostic[],
  context: ReferenceContext | undefined,
  stored: boolean,
): { key: string; value: string } | undefined {
  const match = typeof entry === 'string' ? /^(.*)@([1-9][0-9]{0,8})$/.exec(entry) : null;
  if (match === null) {
    const before = problems.length;
    const ruleset = readReference(entry, at, ['ruleset'], problems, context);
    if (ruleset === undefined || problems.length !== before) return undefined;
    if (!stored) {
      problems.push(problem('VERSION_REQUIRED', at, `approve a version of the set: ${ruleset}@N (the list approves set versions)`));
      return undefined;
    }
    return { key: ruleset, value: ruleset };
  }
  const before = problems.length;
  const ruleset = readReference(match[1], at, ['ruleset'], problems, context);
  const version = Number(match[2]);
  if (ruleset === undefined || problems.length !== before) return undefined;
  if (context?.exists && !context.exists(ruleset, version)) {
    problems.push(problem('REFERENCE_NOT_FOUND', at, `version ${version} of ${ruleset} does not exist`));
    return undefined;
  }
  return { key: entry as string, value: entry as string };
}

/**
 * Whether settings' approved list lets a rule-set version run: that version is listed (`id@N`). A bare id, read
 * from a file stored before the list named versions, approves none.
 *
 * @example
 * isApprovedVersion(['rulesets/a.ruleset.json@2'], 'rulesets/a.ruleset.json', 2) // true
 * isApprovedVersion(['rulesets/a.ruleset.json'], 'rulesets/a.ruleset.json', 2) // false
 */
export function isApprovedVersion(approved: readonly string[], ruleset: string, version: number): boolean {
  return approved.includes(`${ruleset}@${version}`);
}

function readWindow(raw: unknown, at: string, problems: Diagnostic[]): { key: string; value: ObserveWindow } | undefined {
  if (!isRecord(raw)) {
    problems.push(problem('INVALID_TYPE', at, 'an observe window is a mapping: name, starts, ends, relax'));
    return undefined;
  }
  const before = problems.length;
  checkMembers(raw, at, WINDOW_MEMBERS, problems);
  for (const member of WINDOW_MEMBERS) {
    if (raw[member] === undefined) problems.push(problem('MISSING_MEMBER', at, `an observe window needs ${member}`));
  }
  if (raw.name !== undefined && !(typeof raw.name === 'string' && WINDOW_NAME.test(raw.name))) {
    problems.push(problem('INVALID_VALUE', `${at}/name`, 'a window name is 1-64 lowercase letters, digits and -'));
  }
  const starts = raw.starts === undefined ? undefined : readDateTime(raw.starts, `${at}/starts`, problems);
  const ends = raw.ends === undefined ? undefined : readDateTime(raw.ends, `${at}/ends`, problems);
  if (raw.relax !== undefined) readChoice(raw.relax, `${at}/relax`, RELAXES, problems);
  if (starts !== undefined && ends !== undefined && ends <= starts) {
    problems.push(problem('INVALID_WINDOW', `${at}/ends`, 'an observe window ends after it starts'));
  }
  if (problems.length !== before) return undefined;
  const window = { name: raw.name, starts: raw.starts, ends: raw.ends, relax: raw.relax } as ObserveWindow;
  return { key: window.name, value: window };
}
