// POST /v1/catalogues/{id}/tools/{name}/authorize {digest, upstream_digest?}: an owner or admin authorizes the
// binding they read and, for a tool mapped to an upstream, the definition they reviewed (docs/mcp.md).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { CatalogueToolBinding } from './types.ts';

export interface AuthorizeRequest {
  catalogue: string;
  tool: string;
  /** The digest of the binding shown: a binding changed since is refused (409 BINDING_CHANGED). */
  digest: string;
  /**
   * For a tool mapped to an upstream, the digest of the definition shown (upstream.seen.digest): one listed
   * since is refused (409 UPSTREAM_DEFINITION_CHANGED), so what is pinned is what the person read.
   */
  upstreamDigest?: string | undefined;
}

export async function postAuthorizeTool({ catalogue, tool, digest, upstreamDigest }: AuthorizeRequest): Promise<CatalogueToolBinding> {
  const body = upstreamDigest === undefined ? { digest } : { digest, upstream_digest: upstreamDigest };
  return bodyOf(await api.POST('/catalogues/{id}/tools/{name}/authorize', { params: { path: { id: catalogue, name: tool } }, body }));
}

export function usePostAuthorizeTool() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postAuthorizeTool,
    // Refetched on a refusal too: a 409 means the page showed something no longer current.
    onSettled: (_data, _error, request) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.documents.catalogueTools(request.catalogue) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.upstreams.all }),
      ]),
  });
}
