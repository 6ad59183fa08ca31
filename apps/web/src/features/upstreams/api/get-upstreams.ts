// GET /v1/upstreams (members): the running mcp/servers.yaml's servers, the tools each was last seen offering,
// and the catalogue tools mapped to each (docs/mcp.md, "Pinned tool definitions").
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { Upstreams } from '../../../lib/api/refresh-upstreams.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export type { Upstreams };
export type UpstreamServer = Upstreams['servers'][number];
export type UpstreamTool = UpstreamServer['tools'][number];
export type UpstreamToolMapping = UpstreamTool['mapped_by'][number];

export async function getUpstreams(signal?: AbortSignal): Promise<Upstreams> {
  return bodyOf(await api.GET('/upstreams', { signal }));
}

// A refresh puts its own answer under this key (lib/api/refresh-upstreams.ts), with each server it could not list.
export const upstreamsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.upstreams.list(), queryFn: ({ signal }) => getUpstreams(signal) });

export function useUpstreams() {
  return useQuery(upstreamsQueryOptions());
}
