// POST /v1/documents/{id}/activate {sequence}: runs a stored, loadable version (owner or admin).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { DocumentVersion } from './types.ts';

export interface ActivateRequest {
  id: string;
  sequence: number;
}

export function postActivate({ id, sequence }: ActivateRequest): Promise<{ id: string; version: DocumentVersion }> {
  return apiFetch(`/v1/documents/${segment(id)}/activate`, { method: 'POST', body: { sequence } });
}

export function usePostActivate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postActivate,
    // The list, the history and the running text have all moved; invalidate by prefix.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
}
