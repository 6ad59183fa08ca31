// GET /v1/catalogues/{id}/tools: a catalogue's tools, each with its binding and whether it is authorized.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import type { CatalogueTools } from './types.ts';

export async function getCatalogueTools(id: string, signal?: AbortSignal): Promise<CatalogueTools> {
  return bodyOf(await api.GET('/catalogues/{id}/tools', { params: { path: { id } }, signal }));
}

// Under 'documents': an edit, activation or revert of the catalogue (invalidated by that prefix) moves its tools.
export const catalogueToolsQueryOptions = (id: string) =>
  queryOptions({ queryKey: queryKeys.documents.catalogueTools(id), queryFn: ({ signal }) => getCatalogueTools(id, signal) });

export function useCatalogueTools(id: string) {
  return useQuery(catalogueToolsQueryOptions(id));
}
