// POST /v1/documents/{id}/edits with no base: a new policy document from a template, through the edit seam.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';

/** The edit seam's answer (docs/api.md, POST /v1/documents/{id}/edits). */
export interface DraftOutcome {
  status: 'applied' | 'saved_not_running' | 'refused' | 'rejected' | 'conflict';
  version?: { sequence: number };
  reasons: string[];
}

export interface DraftRequest {
  id: string;
  content: string;
  reason: string;
}

export function postDraft({ id, content, reason }: DraftRequest): Promise<DraftOutcome> {
  // based_on null: a first version; the seam answers conflict when the id is already taken.
  return apiFetch<DraftOutcome>(`/v1/documents/${segment(id)}/edits`, {
    method: 'POST',
    body: { content, reason, based_on: null },
    accept: [403, 409, 422],
  });
}

export function usePostDraft() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: postDraft, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }) });
}
