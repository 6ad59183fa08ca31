// An editing page's unsaved text, kept as a draft while it differs from the version it is based on, offered
// back when the document is opened again, and guarded against leaving (docs/console.md, "Drafts").
import { useCallback, useEffect, useRef, useState } from 'react';
import { clearDrafts, type Draft, type DraftWrite, readDrafts, writeDraft } from '../lib/drafts.ts';
import { holdLeave } from '../lib/leave-guard.ts';

/** Keystrokes within this pause are kept as one write. */
const KEEP_AFTER_MS = 300;

interface DraftOptions {
  /** The document's id. */
  id: string;
  /** The version the text is based on (null: a first version). */
  base: number | null;
  /** The text as edited. */
  text: string;
  /** The text of the base as stored: equal to `text` means nothing is unsaved. */
  baseText: string;
  /** False where the text cannot be saved (a role that only reads): nothing is kept or guarded. */
  enabled: boolean;
}

export interface DraftState {
  /** A draft found when the page opened, until it is restored or discarded; while it waits, nothing is kept. */
  offer: Draft | null;
  /** Takes the offer (the page puts its text in place and bases the next save on its base). */
  restore(): Draft | null;
  /** Drops the offer and its stored draft. */
  discard(): void;
  /** Drops the document's drafts (a save succeeded). */
  clear(): void;
  /** Whether the text differs from its base. */
  dirty: boolean;
  /** The last write's outcome: `too_large` and `no_room` are shown, since such text is not kept. */
  kept: DraftWrite | null;
}

/** Example: `const draft = useDraft({ id, base: basedOn, text, baseText, enabled: canSave })`. */
export function useDraft({ id, base, text, baseText, enabled }: DraftOptions): DraftState {
  const [offer, setOffer] = useState<Draft | null>(() => {
    if (!enabled) return null;
    const found = readDrafts(localStorage, id)[0] ?? null;
    return found !== null && found.text !== baseText ? found : null;
  });
  const [kept, setKept] = useState<DraftWrite | null>(null);
  const dirty = enabled && text !== baseText;
  // The newest state, for the flush on leaving and the guard, which outlive a render.
  const latest = useRef({ id, base, text, dirty, waiting: offer !== null });
  latest.current = { id, base, text, dirty, waiting: offer !== null };
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const flush = useCallback(() => {
    clearTimeout(pending.current);
    pending.current = undefined;
    const now = latest.current;
    if (now.waiting) return;
    if (now.dirty) setKept(writeDraft(localStorage, now.id, now.base, now.text));
    else clearDrafts(localStorage, now.id);
  }, []);

  useEffect(() => {
    if (!enabled || offer !== null) return;
    clearTimeout(pending.current);
    pending.current = setTimeout(flush, KEEP_AFTER_MS);
  }, [enabled, offer, text, base, baseText, flush]);

  useEffect(() => {
    if (!enabled) return;
    const onLeave = () => {
      if (pending.current !== undefined) flush();
    };
    // Asked for a reload or a closed tab while text is unsaved; the draft is written first.
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      onLeave();
      if (!latest.current.dirty) return;
      event.preventDefault();
      event.returnValue = '';
    };
    const release = holdLeave(() => latest.current.dirty);
    window.addEventListener('pagehide', onLeave);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      onLeave();
      release();
      window.removeEventListener('pagehide', onLeave);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, [enabled, flush]);

  const restore = useCallback(() => {
    const taken = offer;
    setOffer(null);
    return taken;
  }, [offer]);
  const discard = useCallback(() => {
    clearDrafts(localStorage, id);
    setOffer(null);
  }, [id]);
  const clear = useCallback(() => {
    clearTimeout(pending.current);
    pending.current = undefined;
    clearDrafts(localStorage, id);
  }, [id]);
  return { offer, restore, discard, clear, dirty, kept };
}
