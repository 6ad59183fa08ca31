// GET /v1/documents/{id}/diff?from=A&to=B: a unified diff of two versions and what the second widens over the first.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from '../../../lib/api-client.ts';

export interface DocumentDiff {
  id: string;
  from: number;
  to: number;
  unified: string;
  impact: { widens_security: boolean; widened_subjects: string[] };
}

export function getDiff(id: string, from: number, to: number, signal?: AbortSignal): Promise<DocumentDiff> {
  return apiFetch<DocumentDiff>(`/v1/documents/${segment(id)}/diff?from=${from}&to=${to}`, { signal });
}

export const diffQueryOptions = (id: string, from: number, to: number) =>
  queryOptions({ queryKey: ['documents', 'diff', id, from, to], queryFn: ({ signal }) => getDiff(id, from, to, signal) });

export function useDiff(id: string, from: number, to: number) {
  return useQuery(diffQueryOptions(id, from, to));
}
