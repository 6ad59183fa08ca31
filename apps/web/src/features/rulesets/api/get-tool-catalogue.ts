// GET /v1/documents/catalogue.yaml, read with the engine, for the run panel's tool picker.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { type CatalogueTool, readCatalogue } from '@tollgate/engine';
import { ApiError } from '../../../lib/api/api-error.ts';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const CATALOGUE_ID = 'catalogue.yaml';

/** The catalogue's tools; empty when there is no catalogue or it does not read (the call JSON still works). */
export async function getToolCatalogue(signal?: AbortSignal): Promise<CatalogueTool[]> {
  try {
    const running = bodyOf(await api.GET('/documents/{id}', { params: { path: { id: CATALOGUE_ID } }, signal }));
    const read = readCatalogue(running.text, 'yaml');
    return read.ok ? read.catalogue.tools : [];
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export const toolCatalogueQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.documents.catalogueRead(CATALOGUE_ID, 'tools'), queryFn: ({ signal }) => getToolCatalogue(signal) });

export function useToolCatalogue() {
  return useQuery(toolCatalogueQueryOptions());
}
