// POST /v1/catalogues/{id}/tools/{name}/authorize {digest}: an owner or admin authorizes the binding they read.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { CatalogueToolBinding } from './get-catalogue-tools.ts';

export interface AuthorizeRequest {
  catalogue: string;
  tool: string;
  /** The digest of the binding shown: a binding changed since is refused (409 BINDING_CHANGED). */
  digest: string;
}

export function postAuthorizeTool({ catalogue, tool, digest }: AuthorizeRequest): Promise<CatalogueToolBinding> {
  return apiFetch(`/v1/catalogues/${segment(catalogue)}/tools/${segment(tool)}/authorize`, { method: 'POST', body: { digest } });
}

export function usePostAuthorizeTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postAuthorizeTool,
    onSettled: (_data, _error, request) => queryClient.invalidateQueries({ queryKey: ['documents', 'catalogue-tools', request.catalogue] }),
  });
}
