// POST /v1/documents/{id}/edits: an edit through the edit seam, answered with its outcome (lib/api/document-edits.ts).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { postDocumentEdit } from '../../../lib/api/document-edits.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export function usePostEdit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postDocumentEdit,
    // The list, the history and the running text may all have moved; invalidate by prefix.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }),
  });
}
