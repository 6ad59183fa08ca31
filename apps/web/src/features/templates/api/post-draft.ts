// POST /v1/documents/{id}/edits with no base: a new policy document from a template and then its example
// suite (policies/<name>.examples.json), each through the edit seam.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { exampleSuiteIdOf } from '@tollgate/engine';
import { type EditOutcome, postDocumentEdit } from '../../../lib/api/document-edits.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export type DraftOutcome = EditOutcome;

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

/** The policy first: a suite without its policy would be a stray. based_on null: the seam answers conflict when the id is taken. */
export async function createDraft({ id, content, examples, reason }: DraftRequest): Promise<DraftOutcomes> {
  const policy = await postDocumentEdit({ id, content, reason, basedOn: null });
  const suiteId = exampleSuiteIdOf(id);
  const stored = policy.status === 'applied' || policy.status === 'saved_not_running';
  if (!stored || suiteId === undefined) return { policy, examples: null };
  const suite = await postDocumentEdit({ id: suiteId, content: examples, reason: `${reason}: its example calls`, basedOn: null });
  return { policy, examples: { id: suiteId, outcome: suite } };
}

export function useCreateDraft() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createDraft, onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.documents.all }) });
}
