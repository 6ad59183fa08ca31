// POST /v1/policies/diff: the decision diff of two policy texts (docs/review.md, "In the API and the CLI"). Nothing is
// kept, so the answer is a mutation's, not a cached query's: each Compare asks again.
import { useMutation } from '@tanstack/react-query';
import { api, bodyOf } from '../../../lib/api/client.ts';
import type { components } from '../../../lib/api/schema';

export type PolicyDiffBody = components['schemas']['PolicyDiffBody'];
export type DecisionDiff = components['schemas']['DecisionDiff'];

export async function postPolicyDiff(body: PolicyDiffBody): Promise<DecisionDiff> {
  return bodyOf(await api.POST('/policies/diff', { body }));
}

export function usePolicyDiff() {
  return useMutation({ mutationFn: postPolicyDiff });
}
