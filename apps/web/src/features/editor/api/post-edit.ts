// POST /v1/documents/{id}/edits: an edit through the edit seam, answered with its outcome (201, 409, 422 or 403; 503 when the store is busy).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { EditOutcome } from './types.ts';

export interface EditRequest {
  id: string;
  content: string;
  reason: string;
  basedOn: number | null;
}

export function postEdit({ id, content, reason, basedOn }: EditRequest): Promise<EditOutcome> {
  return apiFetch<EditOutcome>(`/v1/documents/${segment(id)}/edits`, {
    method: 'POST',
    body: { content, reason, based_on: basedOn },
    accept: [403, 409, 422, 503],
  });
}

export function usePostEdit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postEdit,
    // The list, the history and the running text may all have moved; invalidate by prefix.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
}
