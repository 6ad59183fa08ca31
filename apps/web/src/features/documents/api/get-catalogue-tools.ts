// GET /v1/catalogues/{id}/tools: a catalogue's tools, each with its binding and whether it is authorized.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';

export interface AmountMapping {
  pointer: string;
  currency: string;
  currency_pointer?: string;
}

/** One tool's binding as docs/catalogue.md ("The authorized binding") defines it, and its authorization. */
export interface CatalogueToolBinding {
  name: string;
  action: string;
  amount: AmountMapping | null;
  digest: string;
  authorized: boolean;
  authorization: {
    digest: string;
    binding: { name: string; action: string; amount?: AmountMapping };
    authorized_by: string;
    authorized_by_name: string;
    authorized_at: string;
  } | null;
}

export interface CatalogueTools {
  catalogue: string;
  sequence: number;
  tools: CatalogueToolBinding[];
}

export function getCatalogueTools(id: string, signal?: AbortSignal): Promise<CatalogueTools> {
  return apiFetch<CatalogueTools>(`/v1/catalogues/${segment(id)}/tools`, { signal });
}

// Under 'documents': an edit, activation or revert of the catalogue (invalidated by that prefix) moves its tools.
export const catalogueToolsQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['documents', 'catalogue-tools', id], queryFn: ({ signal }) => getCatalogueTools(id, signal) });

export function useCatalogueTools(id: string) {
  return useQuery(catalogueToolsQueryOptions(id));
}
