// POST /v1/documents/policies%2F<name>.examples.json/edits: a policy's example suite saved through the edit seam.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReasonItem } from '../../../components/reason-list.tsx';
import { apiFetch, segment } from '../../../lib/api-client.ts';
import { exampleSuiteQueryOptions } from '../../../lib/example-suites.ts';

/** The edit seam's answer (docs/api.md, POST /v1/documents/{id}/edits). */
export interface SuiteOutcome {
  status: 'applied' | 'saved_not_running' | 'refused' | 'rejected' | 'conflict';
  version?: { sequence: number };
  reasons: ReasonItem[];
}

export interface SuiteEdit {
  /** The policy the suite belongs to. */
  policyId: string;
  /** The suite's own id, `policies/<name>.examples.json`. */
  id: string;
  content: string;
  reason: string;
  /** The stored version the text was edited from; null for a policy's first suite. */
  basedOn: number | null;
}

export function postExampleSuite({ id, content, reason, basedOn }: SuiteEdit): Promise<SuiteOutcome> {
  return apiFetch<SuiteOutcome>(`/v1/documents/${segment(id)}/edits`, {
    method: 'POST',
    body: { content, reason, based_on: basedOn },
    accept: [403, 409, 422],
  });
}

export function usePostExampleSuite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: postExampleSuite,
    // Only the suite's own queries and the list: refetching the policy's text would disturb its editor.
    onSuccess: (_outcome, edit) =>
      Promise.all([
        client.invalidateQueries({ queryKey: exampleSuiteQueryOptions(edit.policyId).queryKey }),
        client.invalidateQueries({ queryKey: ['documents', 'list'] }),
        client.invalidateQueries({ queryKey: ['documents', 'history', edit.id] }),
      ]),
  });
}
