// GET /v1/documents/catalogue.yaml, read as the catalogue sheets and Colang are linted against in the browser.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { type LintCatalogue, readCatalogue } from '@tollgate/engine';
import { ApiError } from '../../../lib/api/api-error.ts';
import { api, bodyOf } from '../../../lib/api/client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

const CATALOGUE_ID = 'catalogue.yaml';

/** The store's catalogue as lint input; undefined when there is none or it does not read. */
export async function getLintCatalogue(signal?: AbortSignal): Promise<LintCatalogue | null> {
  try {
    const running = bodyOf(await api.GET('/documents/{id}', { params: { path: { id: CATALOGUE_ID } }, signal }));
    const read = readCatalogue(running.text, 'yaml');
    return read.ok ? read.catalogue : null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const lintCatalogueQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.documents.catalogueRead(CATALOGUE_ID, 'lint'), queryFn: ({ signal }) => getLintCatalogue(signal) });

export function useLintCatalogue() {
  return useQuery(lintCatalogueQueryOptions());
}
