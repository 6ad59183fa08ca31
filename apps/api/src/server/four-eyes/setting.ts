// Whether four eyes hold (settings.yaml's review_widening_edits; docs/security.md, "Four eyes"), read from the
// running settings as the gate reads them.
import { readSettings } from '@tollgate/engine';
import type { DocumentStore } from '@tollgate/store';

export const SETTINGS_ID = 'settings.yaml';

/** A settings text's review_widening_edits; undefined for a text that does not read (its validator refuses it). */
export function reviewSettingOf(text: string): boolean | undefined {
  const read = readSettings(text, undefined, { stored: true });
  return read.ok ? read.settings.review_widening_edits : undefined;
}

/**
 * The running settings' review_widening_edits: false with no settings file (edits apply by default), or one whose
 * running version does not read, as approvals_require_member_keys is read (approvals/member-keys-setting.ts).
 */
export async function wideningEditsReviewed(store: DocumentStore): Promise<boolean> {
  const doc = await store.get(SETTINGS_ID);
  return doc !== undefined && reviewSettingOf(doc.text) === true;
}
