// Checks a member key against the API (GET /v1/documents) before keeping it: unknown and agent keys are refused.
import { useMutation } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api/api-error.ts';
import { api, bearer } from '../../../lib/api/client.ts';

/** The message a person reads when a key is refused. */
export function refusalOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return 'That key is not known.';
    if (error.code === 'MEMBER_REQUIRED') return "That is an agent's key. Sign in with a member key.";
    return error.message;
  }
  return 'The key could not be checked.';
}

/** Resolves with the key when the API accepts it as a member's (the client throws ApiError otherwise). */
export async function checkKey(key: string): Promise<string> {
  await api.GET('/documents', { headers: bearer(key) });
  return key;
}

export function useCheckKey(onAccepted: (key: string) => void) {
  return useMutation({ mutationFn: checkKey, onSuccess: onAccepted });
}
