// POST /v1/documents/{id}/revert: runs the version that ran before the current one (owner or admin).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { DocumentVersion } from './types.ts';

export function postRevert(id: string): Promise<{ id: string; version: DocumentVersion }> {
  return apiFetch(`/v1/documents/${segment(id)}/revert`, { method: 'POST' });
}

export function usePostRevert() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postRevert,
    // The list, the history and the running text have all moved; invalidate by prefix.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
}
