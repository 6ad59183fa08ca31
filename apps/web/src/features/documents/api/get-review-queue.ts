// The versions of a document waiting for a second person under four eyes (docs/security.md, "Four eyes"): with
// the running settings' review_widening_edits on, every stored version newer than the running one, neither running
// nor rejected, whose diff against the running one widens security. Reads GET /v1/documents/settings.yaml and
// GET /v1/documents/{id}/diff under their own keys, so an edit or an activation refreshes them with the rest.

import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { readSettings } from '@tollgate/engine';
import { ApiError } from '../../../lib/api/api-error.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { diffQueryOptions } from './get-diff.ts';
import { getDocument } from './get-document.ts';
import type { DocumentDiff, DocumentVersion } from './types.ts';

const SETTINGS = 'settings.yaml';

/** Whether the running settings hold four eyes; false with no settings file, as the API reads it. */
export async function getReviewSetting(signal?: AbortSignal): Promise<boolean> {
  try {
    const read = readSettings((await getDocument(SETTINGS, signal)).text, undefined, { stored: true });
    return read.ok && read.settings.review_widening_edits;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return false;
    throw error;
  }
}

export const reviewSettingQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.documents.reviewSetting(), queryFn: ({ signal }) => getReviewSetting(signal) });

/** A version waiting for review, with what it widens over the running one. */
export interface WaitingVersion {
  version: DocumentVersion;
  diff: DocumentDiff;
}

/** The versions waiting for review, newest first; empty while four eyes are off or nothing runs to compare with. */
export function useReviewQueue(id: string, history: readonly DocumentVersion[]): WaitingVersion[] {
  const on = useQuery(reviewSettingQueryOptions()).data === true;
  const running = history.find((v) => v.running);
  const candidates =
    on && running !== undefined ? history.filter((v) => !v.running && !v.rejected && v.sequence > running.sequence).reverse() : [];
  const diffs = useQueries({
    queries: candidates.map((v) => diffQueryOptions(id, running?.sequence ?? v.sequence, v.sequence)),
  });
  return candidates.flatMap((version, i) => {
    const diff = diffs[i]?.data;
    return diff?.impact.widens_security ? [{ version, diff }] : [];
  });
}

/**
 * Whether the signed-in member wrote a version (its author is a member's edit labelled with their name): under four
 * eyes the API refuses them its activation (SELF_REVIEW_FORBIDDEN), so the console says so before they try.
 */
export function writtenBy(version: DocumentVersion, me: string | null): boolean {
  const { kind, label } = version.author;
  return me !== null && (kind === 'person' || kind === 'developer' || kind === 'model') && label === me;
}
