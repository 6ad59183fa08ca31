// POST /v1/catalogues/{id}/tools/{name}/authorize {digest}: an owner or admin authorizes the binding they read.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { CatalogueToolBinding } from './types.ts';

export interface AuthorizeRequest {
  catalogue: string;
  tool: string;
  /** The digest of the binding shown: a binding changed since is refused (409 BINDING_CHANGED). */
  digest: string;
}

export async function postAuthorizeTool({ catalogue, tool, digest }: AuthorizeRequest): Promise<CatalogueToolBinding> {
  return bodyOf(
    await api.POST('/catalogues/{id}/tools/{name}/authorize', { params: { path: { id: catalogue, name: tool } }, body: { digest } }),
  );
}

export function usePostAuthorizeTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postAuthorizeTool,
    onSettled: (_data, _error, request) =>
      queryClient.invalidateQueries({ queryKey: queryKeys.documents.catalogueTools(request.catalogue) }),
  });
}
