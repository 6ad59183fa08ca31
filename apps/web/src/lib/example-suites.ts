// GET /v1/documents/policies%2F<name>.examples.json: a policy's stored example suite (docs/documents.md,
// kind `examples`), read by the policy editor, the templates gallery and the simulation page alike.

import { queryOptions, useQuery } from '@tanstack/react-query';
import { exampleSuiteIdOf } from '@tollgate/engine';
import { ApiError } from './api/api-error.ts';
import { api, bodyOf } from './api/client.ts';
import { queryKeys } from './query-keys.ts';

/** The running version of a policy's suite. */
export interface StoredSuite {
  /** The suite's own document id, `policies/<name>.examples.json`. */
  id: string;
  sequence: number;
  text: string;
  /** False for a suite none of whose versions runs yet, read at its newest version (a draft's). */
  running: boolean;
}

/**
 * The suite stored beside `policyId`, or null when the policy has none yet.
 *
 * @example
 * await getExampleSuite('policies/refunds.policy.json') // { id: 'policies/refunds.examples.json', sequence: 1, text: '{...' }
 */
export async function getExampleSuite(
  policyId: string,
  signal?: AbortSignal,
  options: { orNewest?: boolean } = {},
): Promise<StoredSuite | null> {
  const id = exampleSuiteIdOf(policyId);
  if (id === undefined) return null;
  // No suite yet is an answer, not an error (the panel offers to create one): the list says whether a version of
  // it runs, so a policy without a suite costs no 404 in the browser's console.
  const listed = bodyOf(await api.GET('/documents', { signal })).documents.find((d) => d.id === id);
  if (listed?.running_sequence == null) {
    // A drafted policy's suite has versions but none runs (docs/mcp.md, "Drafting from the console"): a
    // simulation of the draft reads its newest version; the editor, which writes the suite, never does.
    if (!options.orNewest || listed === undefined || listed.versions === 0) return null;
    const sequence = listed.versions;
    const version = bodyOf(await api.GET('/documents/{id}/versions/{sequence}', { params: { path: { id, sequence } }, signal }));
    return { id, sequence, text: version.text, running: false };
  }
  try {
    const body = bodyOf(await api.GET('/documents/{id}', { params: { path: { id } }, signal }));
    return { id, sequence: body.version.sequence, text: body.text, running: true };
  } catch (error) {
    // Stopped running between the two reads.
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const exampleSuiteQueryOptions = (policyId: string) =>
  queryOptions({
    // Under 'documents', so a saved edit of any document refreshes it by prefix.
    queryKey: queryKeys.documents.exampleSuite(policyId),
    queryFn: ({ signal }) => getExampleSuite(policyId, signal),
    // The editor holds its own suite text; a background refetch must not look like a new base.
    refetchOnWindowFocus: false,
  });

export function useExampleSuite(policyId: string | null) {
  return useQuery({ ...exampleSuiteQueryOptions(policyId ?? ''), enabled: policyId !== null });
}

/** The suite as a simulation reads it: the running version, or the newest when none runs (a draft's). */
export function useExampleSuiteOrDraft(policyId: string | null) {
  return useQuery({
    queryKey: queryKeys.documents.exampleSuiteOrDraft(policyId ?? ''),
    queryFn: ({ signal }) => getExampleSuite(policyId ?? '', signal, { orNewest: true }),
    enabled: policyId !== null,
  });
}
