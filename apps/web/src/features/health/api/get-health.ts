// GET /v1/health: ok, or degraded with the document store's damage named (docs/api.md, "Health").
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiErrorOf } from '../../../lib/api/api-error.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

// Until the API types it: GET /v1/health is not in /v1/openapi.json yet, so the generated client has no
// route for it; this narrow local shape and a plain fetch stand in (it needs no key).
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
  const response = await fetch('/v1/health', { headers: { accept: 'application/json' }, signal });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok || typeof body !== 'object' || body === null || !('status' in body)) throw apiErrorOf(response.status, body);
  return body as Health;
}

export const healthQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.health(), queryFn: ({ signal }) => getHealth(signal), refetchInterval: 30_000 });

export function useHealth() {
  return useQuery(healthQueryOptions());
}
