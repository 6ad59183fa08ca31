// POST /v1/documents/{id}/edits, as every page that saves a document sends it: the running version the text
// was based on as `based_on`, the edit's precondition (docs/api.md, preconditions; If-Match would name the
// newest stored version instead, which differs while a newer version waits), and the edit seam's outcome back
// (201 applied or held; 403, 409, 422 and 503 outcomes). A failed or missing precondition (412, 428) is the
// same fault as the seam's conflict, so it comes back as a conflict outcome and opens the same merge.
import { ApiError } from './api-error.ts';
import { api, outcomeOf } from './client.ts';
import type { components } from './schema';

export type EditOutcome = components['schemas']['EditOutcome'];

export interface DocumentEdit {
  id: string;
  content: string;
  reason: string;
  /** The running version the text was edited from; null for a first version. */
  basedOn: number | null;
}

/** Example: `await postDocumentEdit({id: 'policies/a.policy.json', content, reason: 'raise the limit', basedOn: 3})`. */
export async function postDocumentEdit({ id, content, reason, basedOn }: DocumentEdit): Promise<EditOutcome> {
  try {
    const result = await api.POST('/documents/{id}/edits', {
      params: { path: { id } },
      body: { content, reason, based_on: basedOn },
    });
    return outcomeOf(result);
  } catch (error) {
    if (error instanceof ApiError && error.changedSinceOpened) {
      return {
        status: 'conflict',
        reasons: [{ code: error.code, severity: 'error', message: error.message }],
        impact: { widens_security: false, widened_subjects: [] },
      };
    }
    throw error;
  }
}
