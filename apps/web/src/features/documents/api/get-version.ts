// GET /v1/documents/{id}/versions/{sequence}: one stored version, with its text.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import type { DocumentVersion } from './types.ts';

export interface StoredVersion {
  id: string;
  kind: string | null;
  version: DocumentVersion;
  text: string;
}

export function getVersion(id: string, sequence: number, signal?: AbortSignal): Promise<StoredVersion> {
  return apiFetch<StoredVersion>(`/v1/documents/${segment(id)}/versions/${sequence}`, { signal });
}

// A stored version's text never changes, so it stays fresh for good.
export const versionQueryOptions = (id: string, sequence: number) =>
  queryOptions({
    queryKey: ['documents', 'version', id, sequence],
    queryFn: ({ signal }) => getVersion(id, sequence, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useVersion(id: string, sequence: number) {
  return useQuery(versionQueryOptions(id, sequence));
}
