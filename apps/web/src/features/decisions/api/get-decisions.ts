// GET /v1/decisions: recorded gate decisions, newest first, a page at a time (the server's opaque cursor).
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { components } from '../../../lib/api/schema';
import { queryKeys } from '../../../lib/query-keys.ts';

export type RecordedDecision = components['schemas']['RecordedDecision'];
export type ShadowDifference = RecordedDecision['shadow_differences'][number];

/** How many decisions one page shows; "Load older" asks for the next page. */
export const PAGE_SIZE = 50;

export interface DecisionsFilter {
  /** Only calls a shadowed rule file's candidate decides differently (docs/review.md, "Shadow runs"). */
  shadowDiffers: boolean;
  /** Include the kept arguments (owners and admins only). */
  withArguments: boolean;
}

export interface DecisionsPage {
  decisions: RecordedDecision[];
  /** The cursor of the next, older page; null on the last one. */
  next: string | null;
}

export async function getDecisions(filter: DecisionsFilter, cursor: string | null, signal?: AbortSignal): Promise<DecisionsPage> {
  const query = {
    limit: PAGE_SIZE,
    ...(cursor !== null ? { cursor } : {}),
    ...(filter.shadowDiffers ? { shadow: 'differs' as const } : {}),
    ...(filter.withArguments ? { with_arguments: 'true' as const } : {}),
  };
  const body = bodyOf(await api.GET('/decisions', { params: { query }, signal }));
  return { decisions: body.decisions, next: body.has_more ? (body.next_cursor ?? null) : null };
}

export function useDecisions(filter: DecisionsFilter) {
  return useInfiniteQuery({
    queryKey: queryKeys.decisions.list(filter.shadowDiffers, filter.withArguments),
    queryFn: ({ pageParam, signal }) => getDecisions(filter, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });
}
