// GET /v1/health: ok, or degraded with the document store's damage named (docs/api.md, "Health").
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api-client.ts';

export interface StoreDamage {
  id: string;
  code: string;
  message: string;
}

export interface Health {
  status: 'ok' | 'degraded';
  problems?: StoreDamage[];
}

export async function getHealth(signal?: AbortSignal): Promise<Health> {
  return apiFetch<Health>('/v1/health', { key: null, signal });
}

export const healthQueryOptions = () =>
  queryOptions({ queryKey: ['health'], queryFn: ({ signal }) => getHealth(signal), refetchInterval: 30_000 });

export function useHealth() {
  return useQuery(healthQueryOptions());
}
