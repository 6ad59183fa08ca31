// POST /v1/documents/policies%2F<name>.examples.json/edits: a policy's example suite saved through the edit seam.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type DocumentEdit, type EditOutcome, postDocumentEdit } from '../../../lib/api/document-edits.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

export type SuiteOutcome = EditOutcome;

export interface SuiteEdit extends DocumentEdit {
  /** The policy the suite belongs to. */
  policyId: string;
}

export function usePostExampleSuite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (edit: SuiteEdit) => postDocumentEdit(edit),
    // Only the suite's own queries and the list: refetching the policy's text would disturb its editor.
    onSuccess: (_outcome, edit) =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.documents.exampleSuite(edit.policyId) }),
        client.invalidateQueries({ queryKey: queryKeys.documents.list() }),
        client.invalidateQueries({ queryKey: queryKeys.documents.history(edit.id) }),
      ]),
  });
}
