// Pure helpers of the Members & keys page: what its forms send (a new key's body, a rotation's overlap) and how a
// key and a recorded change read. The secret of a new key is split off here, before anything keeps the answer.
import type { paths } from '../../lib/api/schema';
import type { Grant, IdentityChange, Key, NewKey } from './api/types.ts';

export type NewKeyBody = NonNullable<paths['/keys']['post']['requestBody']>['content']['application/json'];

/** A key just made or rotated: its secret, shown once, and the key as listed. */
export interface RevealedKey {
  secret: string;
  info: Key;
}

/** Splits the key itself off a new key's answer. Example: `withoutSecret(made).info` has no `key`. */
export function withoutSecret(made: NewKey): { key: string; info: Key } {
  const { key, ...info } = made;
  return { key, info };
}

/** The longest overlap a rotation takes (the API's bound: 30 days). */
export const MAX_OVERLAP_SECONDS = 2_592_000;

/** The overlaps offered when rotating: how long the old key keeps working. */
export const OVERLAPS = [
  { label: 'Now', seconds: 0 },
  { label: '1 hour', seconds: 3_600 },
  { label: '1 day', seconds: 86_400 },
  { label: '7 days', seconds: 604_800 },
] as const;

/**
 * The overlap a rotation sends: an offered choice, or custom whole seconds (0 to 30 days).
 * Example: `overlapOf('custom', '90')` is `{seconds: 90}`; `overlapOf('custom', '1.5')` is a problem.
 */
export function overlapOf(choice: number | 'custom', custom: string): { seconds: number } | { problem: string } {
  if (choice !== 'custom') return { seconds: choice };
  const text = custom.trim();
  if (!/^\d+$/.test(text)) return { problem: 'The overlap is a whole number of seconds.' };
  const seconds = Number(text);
  if (seconds > MAX_OVERLAP_SECONDS) return { problem: `The overlap is at most ${MAX_OVERLAP_SECONDS} seconds (30 days).` };
  return { seconds };
}

/**
 * An expiry typed in a datetime-local field (the browser's local time) as an RFC 3339 instant, or null when left
 * empty. Example: `expiryOf('')` is `{at: null}`.
 */
export function expiryOf(local: string): { at: string | null } | { problem: string } {
  if (local.trim() === '') return { at: null };
  const at = new Date(local);
  if (Number.isNaN(at.getTime())) return { problem: 'The expiry is not a date and time.' };
  return { at: at.toISOString() };
}

export interface NewKeyForm {
  name: string;
  holder: 'member' | 'agent';
  member: string;
  agent: string;
  grants: readonly Grant[];
  /** The datetime-local field's text; empty for none. */
  expires: string;
}

/**
 * The body of POST /v1/keys for the form, or what to mend first. No grant ticked sends none, so that a member's key
 * gets its role's grants and an agent's none (the API's default, docs/api.md).
 */
export function newKeyBody(form: NewKeyForm): { body: NewKeyBody } | { problem: string } {
  const holderName = (form.holder === 'member' ? form.member : form.agent).trim();
  if (holderName === '')
    return { problem: form.holder === 'member' ? 'Choose the member the key is for.' : 'Name the agent the key is for.' };
  const expiry = expiryOf(form.expires);
  if ('problem' in expiry) return expiry;
  const body: NewKeyBody = form.holder === 'member' ? { member: holderName } : { agent: holderName };
  if (form.name.trim() !== '') body.name = form.name.trim();
  if (form.grants.length > 0) body.grants = [...form.grants];
  if (expiry.at !== null) body.expires_at = expiry.at;
  return { body };
}

/** Who holds a key, as the table reads it. Example: `holderOf(key)` is `member ana` or `agent support-bot`. */
export function holderOf(key: Pick<Key, 'member_name' | 'member_id' | 'agent'>): string {
  if (key.agent !== null) return `agent ${key.agent}`;
  return `member ${key.member_name ?? key.member_id ?? 'unknown'}`;
}

/** A key's hint as shown: its last four characters after an ellipsis, or a dash for a key made before hints. */
export function hintOf(hint: string | null): string {
  return hint === null ? '—' : `…${hint}`;
}

/** A recorded change's details, one `name: value` a pair in the order given. Example: `role: admin, from: viewer`. */
export function detailsOf(change: Pick<IdentityChange, 'details'>): string {
  return Object.entries(change.details)
    .map(([name, value]) => `${name}: ${value ?? '—'}`)
    .join(', ');
}
