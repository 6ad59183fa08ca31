// Offers a kept draft back when its document is opened again: restore or discard, and, when another
// version runs now than the one the draft was based on, the draft's differences from what runs first.
import type { Draft } from '../lib/drafts.ts';
import { DiffEditor } from '../lib/monaco/diff-editor.tsx';
import { RelativeTime } from './relative-time.tsx';

interface DraftOfferProps {
  draft: Draft;
  /** The version the page opened (what runs now) and its text. */
  opened: { version: number | null; text: string };
  language: 'yaml' | 'json' | 'plaintext';
  onRestore: () => void;
  onDiscard: () => void;
  /** Whether a restored draft is saved against its own base (the editors) rather than what runs now (the example suite). */
  savesAgainstBase?: boolean;
}

const versionName = (version: number | null) => (version === null ? 'no stored version' : `version ${version}`);

export function DraftOffer({ draft, opened, language, onRestore, onDiscard, savesAgainstBase = true }: DraftOfferProps) {
  const moved = draft.base !== opened.version;
  return (
    <section className="draft-offer" aria-labelledby="draft-offer-heading">
      <h3 id="draft-offer-heading" className="draft-offer-title">
        Unsaved draft
      </h3>
      <p>
        Text you did not save, kept in this browser <RelativeTime at={new Date(draft.savedAt).toISOString()} />, based on{' '}
        {versionName(draft.base)}.
      </p>
      {moved && (
        <>
          <p className="draft-offer-moved">
            {versionName(opened.version)} runs now, not {versionName(draft.base)}. Below, what runs now beside your draft.{' '}
            {savesAgainstBase
              ? `A restored draft is saved against ${versionName(draft.base)}, so a change made since opens the merge.`
              : 'A restored draft replaces what runs now when it is stored.'}
          </p>
          <DiffEditor
            original={opened.text}
            modified={draft.text}
            language={language}
            originalLabel={`What runs now (${versionName(opened.version)})`}
            modifiedLabel="Your draft"
          />
        </>
      )}
      <p className="draft-offer-actions">
        <button type="button" className="button button-primary" onClick={onRestore}>
          Restore the draft
        </button>
        <button type="button" className="button" onClick={onDiscard}>
          Discard the draft
        </button>
      </p>
    </section>
  );
}

/** Says when unsaved text could not be kept as a draft (too large, or the browser's storage is full). */
export function DraftNotice({ kept }: { kept: 'kept' | 'too_large' | 'no_room' | null }) {
  if (kept !== 'too_large' && kept !== 'no_room') return null;
  return (
    <p className="state draft-notice" role="status">
      {kept === 'too_large'
        ? 'This text is over 1 MiB, too large to keep as a draft in the browser: save it before leaving.'
        : "The browser's storage is full, so this text is not kept as a draft: save it before leaving."}
    </p>
  );
}
