// POST /v1/documents/{id}/revert: runs the version that ran before the current one (owner or admin), If-Match
// naming the newest version the page read.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf, ifMatch } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { DocumentVersion } from './types.ts';

export interface RevertRequest {
  id: string;
  /** The document's entity tag as read: its newest stored sequence. */
  newest: number;
}

export async function postRevert({ id, newest }: RevertRequest): Promise<{ id: string; version: DocumentVersion }> {
  return bodyOf(await api.POST('/documents/{id}/revert', { params: { path: { id } }, headers: ifMatch(newest) }));
}

export function usePostRevert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postRevert,
    // The list, the history and the running text have all moved (or, refused, were stale); invalidate by prefix.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }),
  });
}
