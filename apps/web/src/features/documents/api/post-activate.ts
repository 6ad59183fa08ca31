// POST /v1/documents/{id}/activate {sequence}: runs a stored, loadable version (owner or admin). If-Match names
// the newest version the page read, so an activation over someone else's newer save is refused (412).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf, ifMatch } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentVersion } from './types.ts';

export interface ActivateRequest {
  id: string;
  sequence: number;
  /** The document's entity tag as read: its newest stored sequence. */
  newest: number;
}

export async function postActivate({ id, sequence, newest }: ActivateRequest): Promise<{ id: string; version: DocumentVersion }> {
  return bodyOf(await api.POST('/documents/{id}/activate', { params: { path: { id } }, body: { sequence }, headers: ifMatch(newest) }));
}

export function usePostActivate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postActivate,
    // The list, the history and the running text have all moved (or, refused, were stale); invalidate by prefix.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }),
  });
}
