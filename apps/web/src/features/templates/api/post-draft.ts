// POST /v1/documents/{id}/edits with no base: a new policy document from a template and then its example
// suite (policies/<name>.examples.json), each through the edit seam.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { exampleSuiteIdOf } from '@tollgate/engine';
import type { ReasonItem } from '../../../components/reason-list.tsx';
import { apiFetch, segment } from '../../../lib/api-client.ts';

/** The edit seam's answer (docs/api.md, POST /v1/documents/{id}/edits). */
export interface DraftOutcome {
  status: 'applied' | 'saved_not_running' | 'refused' | 'rejected' | 'conflict';
  version?: { sequence: number };
  reasons: ReasonItem[];
}

export interface DraftRequest {
  id: string;
  content: string;
  /** The template's example suite, stored beside the policy once the policy is stored. */
  examples: string;
  reason: string;
}

export interface DraftOutcomes {
  policy: DraftOutcome;
  /** The suite's outcome; null when the policy was not stored, so no suite was sent. */
  examples: { id: string; outcome: DraftOutcome } | null;
}

export function postDraft(id: string, content: string, reason: string): Promise<DraftOutcome> {
  // based_on null: a first version; the seam answers conflict when the id is already taken.
  return apiFetch<DraftOutcome>(`/v1/documents/${segment(id)}/edits`, {
    method: 'POST',
    body: { content, reason, based_on: null },
    accept: [403, 409, 422],
  });
}

/** The policy first: a suite without its policy would be a stray. */
export async function createDraft({ id, content, examples, reason }: DraftRequest): Promise<DraftOutcomes> {
  const policy = await postDraft(id, content, reason);
  const suiteId = exampleSuiteIdOf(id);
  const stored = policy.status === 'applied' || policy.status === 'saved_not_running';
  if (!stored || suiteId === undefined) return { policy, examples: null };
  return { policy, examples: { id: suiteId, outcome: await postDraft(suiteId, examples, `${reason}: its example calls`) } };
}

export function useCreateDraft() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createDraft, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }) });
}
