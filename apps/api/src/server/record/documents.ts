// Documents' changes in the record (docs/audit.md, "What is chained"): each version this process saves, activates or
// reverts to, or finds changed in its folder, is chained as `document.changed` with the SHA-256 of its text. The
// versions live in the document store, not the state database, so the entry is written just after the change (a
// crash between the two can leave one change unchained); an export restates the digest from the version's text as
// the store holds it now, so a version's text changed in the store no longer hashes.
import { createHash } from 'node:crypto';
import type { DocumentStore } from '@tollgate/store';
import type { EventHub } from '../event-hub.ts';
import type { StateStore } from '../state/state-store.ts';

export const DOCUMENT_CHANGED = 'document.changed';

/** The SHA-256 of a version's text, as lowercase hex. */
export function textDigest(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The entry's ref for a version: `id@sequence`. */
export function documentRef(id: string, sequence: number): string {
  return `${id}@${sequence}`;
}

/** The version a ref names, or undefined for one that is not a ref of a version. */
export function versionOfRef(ref: string): { id: string; sequence: number } | undefined {
  const at = ref.lastIndexOf('@');
  const sequence = Number(ref.slice(at + 1));
  if (at <= 0 || !Number.isSafeInteger(sequence) || sequence < 1) return undefined;
  return { id: ref.slice(0, at), sequence };
}

/**
 * Chains every document change this process publishes (never one relayed from another node: that node chains its
 * own). A change that cannot be chained is warned of; the change itself has already been made.
 */
export function chainDocumentChanges(events: EventHub, store: DocumentStore, state: StateStore, now: () => Date): () => Promise<void> {
  /** What was last chained of each document, so an event heard twice is chained once. */
  const last = new Map<string, string>();
  const pending = new Set<Promise<void>>();
  const stop = events.onPublish((event) => {
    if (event.type !== 'document') return;
    const chaining = (async () => {
      const version = await store.getVersion(event.id, event.sequence);
      if (!version) return;
      const body = {
        id: version.id,
        sequence: version.sequence,
        text_sha256: textDigest(version.text),
        running: version.running,
        author: `${version.author.kind}:${version.author.label}`,
      };
      const key = JSON.stringify(body);
      if (last.get(version.id) === key) return;
      last.set(version.id, key);
      await state.chain(DOCUMENT_CHANGED, now().toISOString(), documentRef(version.id, version.sequence), body);
    })().catch((err: unknown) => {
      process.emitWarning(`a change of ${event.id} could not be chained to the record (${String(err)})`, 'TollgateWarning');
    });
    pending.add(chaining);
    void chaining.finally(() => pending.delete(chaining));
  });
  // Stopping waits for the changes being chained: a clean stop chains every change it made.
  return async () => {
    stop();
    await Promise.all(pending);
  };
}
