// POST /v1/upstreams/refresh (owner or admin): the server asks every upstream for its tools now and records
// their definitions (docs/mcp.md, "Pinned tool definitions"). Shared by the catalogue's tools, where an unseen
// tool offers it, and the Upstreams page.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../query-keys.ts';
import { api, bodyOf } from './client.ts';
import type { components } from './schema';

export type Upstreams = components['schemas']['Upstreams'];

export async function postRefreshUpstreams(): Promise<Upstreams> {
  return bodyOf(await api.POST('/upstreams/refresh'));
}

export function useRefreshUpstreams() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: postRefreshUpstreams,
    onSuccess: (upstreams) => {
      // The refresh's answer is the list, with each server that could not be listed named: shown as it is.
      queryClient.setQueryData(queryKeys.upstreams.list(), upstreams);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.allCatalogueTools }),
  });
}
