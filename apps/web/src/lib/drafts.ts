// Unsaved editor text kept in the browser (localStorage), one draft per document and base version, so a
// reload, a closed tab or Back never loses an edit (docs/console.md, "Drafts"). Pure functions over a Storage.

/** The prefix of every draft's storage key: `tollgate.draft:<encoded document id>@<base version or "new">`. */
export const DRAFT_PREFIX = 'tollgate.draft:';
/** The largest text kept as a draft, in UTF-16 code units (1 MiB): localStorage holds about 5 million per origin. */
export const MAX_DRAFT_CHARS = 1024 * 1024;
/** Drafts older than this are dropped when read (30 days). */
export const MAX_DRAFT_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export interface Draft {
  /** The document's id. */
  id: string;
  /** The version the text was based on (null: a first version). */
  base: number | null;
  text: string;
  /** When it was last kept, as an ISO timestamp. */
  savedAt: string;
}

/** The storage key of a document's draft on a base. Example: `draftKey('policies/a.policy.json', 3)` is `'tollgate.draft:policies%2Fa.policy.json@3'`. */
export function draftKey(id: string, base: number | null): string {
  return `${DRAFT_PREFIX}${encodeURIComponent(id)}@${base ?? 'new'}`;
}

/** A stored value read back as a draft of `id`, or null when it is not one (never guessed into one). */
function readDraft(raw: string | null, id: string): Draft | null {
  if (raw === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const d = value as Record<string, unknown>;
  const base = d.base === null || (typeof d.base === 'number' && Number.isSafeInteger(d.base) && d.base > 0) ? d.base : undefined;
  if (d.id !== id || base === undefined || typeof d.text !== 'string' || typeof d.savedAt !== 'string') return null;
  if (Number.isNaN(Date.parse(d.savedAt))) return null;
  return { id, base, text: d.text, savedAt: d.savedAt };
}

function keysOf(storage: Storage): string[] {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(DRAFT_PREFIX)) keys.push(key);
  }
  return keys;
}

/**
 * The drafts of `id`, newest first. Entries that do not read as a draft of it, or are older than
 * MAX_DRAFT_AGE_MS, are removed rather than offered. Example: `readDrafts(localStorage, id)[0]?.text`.
 */
export function readDrafts(storage: Storage, id: string, now = Date.now()): Draft[] {
  const prefix = `${DRAFT_PREFIX}${encodeURIComponent(id)}@`;
  const drafts: Draft[] = [];
  for (const key of keysOf(storage).filter((k) => k.startsWith(prefix))) {
    const draft = readDraft(storage.getItem(key), id);
    if (draft === null || key !== draftKey(id, draft.base) || now - Date.parse(draft.savedAt) > MAX_DRAFT_AGE_MS) storage.removeItem(key);
    else drafts.push(draft);
  }
  return drafts.sort((a, b) => Date.parse(b.savedAt) - Date.parse(a.savedAt));
}

/** Whether a draft was kept: `too_large` over MAX_DRAFT_CHARS, `no_room` when the storage is full even of others' drafts. */
export type DraftWrite = 'kept' | 'too_large' | 'no_room';

/**
 * Keeps `text` as the draft of `id` on `base`. When the storage is full, the oldest drafts of other
 * documents make room, one at a time. Example: `writeDraft(localStorage, id, 3, text)` is `'kept'`.
 */
export function writeDraft(storage: Storage, id: string, base: number | null, text: string, now = Date.now()): DraftWrite {
  if (text.length > MAX_DRAFT_CHARS) return 'too_large';
  const key = draftKey(id, base);
  const value = JSON.stringify({ id, base, text, savedAt: new Date(now).toISOString() } satisfies Draft);
  for (;;) {
    try {
      storage.setItem(key, value);
      return 'kept';
    } catch {
      const oldest = oldestOtherDraft(storage, key);
      if (oldest === undefined) return 'no_room';
      storage.removeItem(oldest);
    }
  }
}

function oldestOtherDraft(storage: Storage, except: string): string | undefined {
  let oldest: { key: string; at: number } | undefined;
  for (const key of keysOf(storage)) {
    if (key === except) continue;
    // A value that does not read as a draft goes first.
    const at = Date.parse(savedAtOf(storage.getItem(key))) || 0;
    if (oldest === undefined || at < oldest.at) oldest = { key, at };
  }
  return oldest?.key;
}

function savedAtOf(raw: string | null): string {
  try {
    const value: unknown = JSON.parse(raw ?? '');
    return typeof value === 'object' && value !== null && 'savedAt' in value && typeof value.savedAt === 'string' ? value.savedAt : '';
  } catch {
    return '';
  }
}

/** Drops every draft of `id` (a save succeeded, or the draft was discarded). */
export function clearDrafts(storage: Storage, id: string): void {
  const prefix = `${DRAFT_PREFIX}${encodeURIComponent(id)}@`;
  for (const key of keysOf(storage)) if (key.startsWith(prefix)) storage.removeItem(key);
}
